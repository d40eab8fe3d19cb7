import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../src/package-root.js';

/**
 * The repository's root (the package root: the nearest folder above with
 * package.json). Counting `../..` from a module would not do: `npm test` runs
 * the tests compiled to .test-dist/ (one level deeper), a developer runs them
 * from test/ through tsx, and files that are not TypeScript (fixtures, the
 * Dockerfile, dist/) exist only at the root.
 */
export const repositoryRoot = packageRoot;

/** A path inside the repository, from its root: `repositoryPath('test', 'fixtures', 'knowledge')`. */
export function repositoryPath(...segments: string[]): string {
  return path.join(repositoryRoot, ...segments);
}

/**
 * The Node.js arguments that run one of the test's own TypeScript modules in a
 * child process, given from the repository root without its extension: the
 * compiled copy beside the running test when the tests are compiled, else the
 * source through tsx.
 */
export function testScriptArguments(modulePath: string): string[] {
  const compiled = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', `${modulePath}.js`);
  if (import.meta.url.endsWith('.js')) return [compiled];
  return ['--import', 'tsx', repositoryPath(`${modulePath}.ts`)];
}

// Whether a build's output is up to date with what it is built from: one rule
// for `npm test`'s build steps (build-if-stale.mjs) and for the test runner's
// check that it runs no old code (run-tests.mjs).
//   server  `npm run build`: dist/ and dist/web/, from src/, web/ and the build's configuration
//   tests   `npm run build:tests`: .test-dist/, from the TypeScript of src/, test/, bench/ and scripts/
// tsc and vite rewrite every output on each build, so the oldest output is as
// new as the build that wrote it; the tests' compilation emits nothing when it
// finds a type error (noEmitOnError), so up-to-date output means the last check
// passed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function filesUnder(directory) {
  if (!fs.existsSync(directory)) return [];
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.name === 'node_modules') return [];
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
const at = (...names) => names.map((name) => path.join(root, name));
const typeScript = (file) => file.endsWith('.ts') && !file.endsWith('.d.ts');
/** Where tsc writes the JavaScript of `file`, compiled from `from` into `to`. */
const compiled = (file, from, to) => path.join(to, path.relative(from, file)).replace(/\.ts$/, '.js');

/** Each build: the npm script that makes it, what it writes (groups of files) and what it reads. */
export const builds = {
  server: () => ({
    script: 'build',
    what: 'dist/',
    // The compiled file of each source (dist/ may also hold files of sources since removed), and the dashboard.
    outputs: [
      filesUnder(path.join(root, 'src'))
        .filter(typeScript)
        .map((file) => compiled(file, path.join(root, 'src'), path.join(root, 'dist'))),
      filesUnder(path.join(root, 'dist', 'web')),
    ],
    inputs: [
      ...filesUnder(path.join(root, 'src')),
      ...filesUnder(path.join(root, 'web')),
      ...at('package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/compress-web.mjs'),
    ],
  }),
  tests: () => {
    // tsconfig.test.json compiles what tsconfig.json includes, into .test-dist/ (rootDir: the repository).
    const sources = ['src', 'test', 'bench', 'scripts'].flatMap((name) => filesUnder(path.join(root, name)));
    return {
      script: 'build:tests',
      what: '.test-dist/',
      outputs: [sources.filter(typeScript).map((file) => compiled(file, root, path.join(root, '.test-dist')))],
      // The lockfile stands for the installed packages, whose types the check reads.
      inputs: [
        ...sources.filter(typeScript),
        ...at('package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.test.json'),
      ],
    };
  },
};

/**
 * The build (its script, what it writes, what it reads) and `stale`: null when
 * its every output is newer than its newest input, else why not (an output
 * missing, or the newest input; paths relative to the repository).
 */
export function buildState(name) {
  const build = builds[name]();
  const relative = (file) => path.relative(root, file);
  const missing = build.outputs.flat().find((file) => !fs.existsSync(file));
  if (missing !== undefined || build.outputs.some((files) => files.length === 0)) {
    return { ...build, stale: missing ? `${relative(missing)} is missing` : `${build.what} is empty` };
  }
  const oldestOutput = Math.min(...build.outputs.flat().map(mtime));
  const [newest, time] = build.inputs
    .map((file) => [file, mtime(file)])
    .reduce((one, other) => (other[1] > one[1] ? other : one));
  return { ...build, stale: time < oldestOutput ? null : `${relative(newest)} is newer than ${build.what}` };
}

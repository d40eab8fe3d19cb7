#!/usr/bin/env node
// `npm test`'s build steps, each run only when what it writes is older than
// what it reads:
//   node scripts/build-if-stale.mjs         `npm run build` (dist/, dist/web/)
//   node scripts/build-if-stale.mjs tests   `npm run build:tests` (.test-dist/)
// `npm install` and `npm ci` build dist/ through `prepare`, and CI compiles the
// tests while SQLite compiles (.ci/run), so neither is done twice. tsc and vite
// rewrite every output on each build, so the oldest output is as new as the
// build that wrote it; the tests' compilation emits nothing when it finds a type
// error (noEmitOnError), so up-to-date output means the last check passed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function filesUnder(directory, skip = () => false) {
  if (!fs.existsSync(directory)) return [];
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (skip(full) || entry.name === 'node_modules') return [];
    return entry.isDirectory() ? filesUnder(full, skip) : [full];
  });
}

const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
const at = (...names) => names.map((name) => path.join(root, name));
const typeScript = (file) => file.endsWith('.ts') && !file.endsWith('.d.ts');
/** Where tsc writes the JavaScript of `file`, compiled from `from` into `to`. */
const compiled = (file, from, to) => path.join(to, path.relative(from, file)).replace(/\.ts$/, '.js');

const targets = {
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

const target = targets[process.argv[2] ?? 'server']?.();
if (target === undefined) {
  console.error(`unknown target ${process.argv[2]}: server or tests`);
  process.exit(2);
}
const newestInput = Math.max(...target.inputs.map(mtime));
const fresh = target.outputs.every((files) => files.length > 0 && Math.min(...files.map(mtime)) > newestInput);
if (fresh) {
  console.log(`${target.what} is newer than its sources: not built again`);
} else {
  const result = spawnSync('npm', ['run', target.script, '--silent'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

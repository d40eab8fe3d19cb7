#!/usr/bin/env node
// `npm test`'s build step: runs `npm run build` unless every file it writes
// (dist/, dist/web/) is newer than every file it reads. `npm install` and
// `npm ci` build through `prepare`, so a fresh clone's `npm install && npm test`
// compiles the server once, not twice. tsc and vite rewrite every output on each
// build, so the oldest output is as new as the build that wrote it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function filesUnder(directory, skip = () => false) {
  if (!fs.existsSync(directory)) return [];
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (skip(full)) return [];
    return entry.isDirectory() ? filesUnder(full, skip) : [full];
  });
}

const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
const web = path.join(root, 'dist', 'web');
// The compiled file of each source (dist/ may also hold files of sources since removed), and the dashboard.
const outputs = [
  filesUnder(path.join(root, 'src'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => path.join(root, 'dist', path.relative(path.join(root, 'src'), file)).replace(/\.ts$/, '.js')),
  filesUnder(web),
];
const inputs = [
  ...filesUnder(path.join(root, 'src')),
  ...filesUnder(path.join(root, 'web')),
  ...['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/compress-web.mjs']
    .map((name) => path.join(root, name))
    .filter((file) => fs.existsSync(file)),
];

const newestInput = Math.max(...inputs.map(mtime));
const fresh = outputs.every((files) => files.length > 0 && Math.min(...files.map(mtime)) > newestInput);
if (fresh) {
  console.log('dist/ is newer than its sources: not built again');
} else {
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

#!/usr/bin/env node
// `npm test`'s build steps, each run only when what it writes is older than
// what it reads (scripts/build-state.mjs):
//   node scripts/build-if-stale.mjs         `npm run build` (dist/, dist/web/)
//   node scripts/build-if-stale.mjs tests   `npm run build:tests` (.test-dist/)
// `npm install` and `npm ci` build dist/ through `prepare`, and CI compiles the
// tests while SQLite compiles (.ci/run), so neither is done twice.
import { spawnSync } from 'node:child_process';
import { buildState, builds, root } from './build-state.mjs';

const name = process.argv[2] ?? 'server';
if (!(name in builds)) {
  console.error(`unknown target ${name}: server or tests`);
  process.exit(2);
}
const build = buildState(name);
if (build.stale === null) {
  console.log(`${build.what} is newer than its sources: not built again`);
} else {
  const result = spawnSync('npm', ['run', build.script, '--silent'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

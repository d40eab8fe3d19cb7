#!/usr/bin/env node
// `npm test`'s build steps, each run only when what it writes is older than
// what it reads (scripts/build-state.mjs):
//   node scripts/build-if-stale.mjs         `npm run build` (dist/, dist/web/)
//   node scripts/build-if-stale.mjs tests   `npm run build:tests` (.test-dist/)
// `npm install` and `npm ci` build dist/ through `prepare`, and CI compiles the
// tests while SQLite compiles (.ci/run), so neither is done twice.
import { spawnSync } from 'node:child_process';
import { builds, outOfDate, root } from './build-state.mjs';

const name = process.argv[2] ?? 'server';
if (!(name in builds)) {
  console.error(`unknown target ${name}: server or tests`);
  process.exit(2);
}
const stale = outOfDate(name);
if (stale === null) {
  console.log(`${builds[name]().what} is newer than its sources: not built again`);
} else {
  const result = spawnSync('npm', ['run', stale.script, '--silent'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

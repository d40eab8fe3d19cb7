#!/usr/bin/env node
// Runs every test file under test/ with node:test (TypeScript through tsx).
// Node 20 cannot glob test files itself, so they are listed here. Extra
// arguments are passed through, e.g. `npm test -- test/unit`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const roots = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));

function collect(entry) {
  const stat = fs.statSync(entry);
  if (stat.isFile()) return entry.endsWith('.test.ts') ? [entry] : [];
  return fs
    .readdirSync(entry)
    .sort()
    .flatMap((name) => collect(path.join(entry, name)));
}

const files = (roots.length ? roots : ['test']).flatMap(collect);
for (const [name, value] of [
  ['DATABASE_URL', process.env.DATABASE_URL],
  ['REDIS_URL', process.env.REDIS_URL],
]) {
  if (!value) console.log(`note: ${name} is not set; its tests are reported as skipped`);
}

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...flags, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);

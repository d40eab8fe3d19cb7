#!/usr/bin/env node
// Runs every test file under test/ with node:test (TypeScript through tsx).
// Node 20 cannot glob test files itself, so they are listed here. Extra
// arguments are passed through, e.g. `npm test -- test/unit`.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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

// Test files name their PostgreSQL schemas after this run; they are dropped here once every file has
// finished (a schema dropped while another file migrates breaks that migration; see test/helpers/test-app.ts).
const run = randomBytes(4).toString('hex');
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...flags, ...files],
  { stdio: 'inherit', env: { ...process.env, AGENTD_TEST_RUN: run } },
);

async function dropSchemasOfThisRun() {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query('select nspname from pg_namespace where starts_with(nspname, $1)', [
      `test_${run}_`,
    ]);
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
  } finally {
    await client.end();
  }
}

if (process.env.DATABASE_URL?.startsWith('postgres')) {
  await dropSchemasOfThisRun().catch((error) =>
    console.log(`note: could not drop this run's PostgreSQL schemas: ${error.message}`),
  );
}
process.exit(result.status ?? 1);

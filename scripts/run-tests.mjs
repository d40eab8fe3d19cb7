#!/usr/bin/env node
// Runs every test file under test/ with node:test, as the JavaScript that
// `npm run build:tests` (tsc -p tsconfig.test.json, run by `npm test`) writes to
// .test-dist/: loading TypeScript through tsx in every test process costs
// seconds of CPU each. Node 20 cannot glob test files itself, so they are
// listed here. Extra arguments are passed through, e.g. `npm test -- test/unit`
// or `npm test -- test/api/agents.test.ts`: paths name the TypeScript sources.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildState, root } from './build-state.mjs';
import { findSecretsInLogs } from './log-secrets.mjs';

// tsconfig.test.json's outDir; its rootDir is the repository, so test/x.test.ts is compiled to .test-dist/test/x.test.js.
const compiledDirectory = path.join(root, '.test-dist');

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

/** Where tsc writes the JavaScript of a TypeScript file of the repository. */
function compiledFile(source) {
  return path.join(compiledDirectory, path.relative(root, path.resolve(source)).replace(/\.ts$/, '.js'));
}

// Tests run without compiling first would test old code.
const { stale } = buildState('tests');
if (stale !== null) {
  console.log(
    `${stale}: run \`npm run build:tests\` (as \`npm test\` does) first.` +
      ' One file straight from its source: `node --import tsx --test test/…/x.test.ts`.',
  );
  process.exit(1);
}

const files = (roots.length ? roots : [path.join(root, 'test')])
  .flatMap(collect)
  .map((file) => path.relative(process.cwd(), compiledFile(file)));
for (const [name, value] of [
  ['DATABASE_URL', process.env.DATABASE_URL],
  ['REDIS_URL', process.env.REDIS_URL],
]) {
  if (!value) console.log(`note: ${name} is not set; its tests are reported as skipped`);
}

// Test files name their PostgreSQL schemas after this run; they are dropped here once every file has
// finished (a schema dropped while another file migrates breaks that migration; see test/helpers/test-app.ts).
const run = randomBytes(4).toString('hex');
// Every log line of the run is written here and checked for secrets once the tests are done.
const logDirectory = path.join(os.tmpdir(), `agentd-test-logs-${run}`);
fs.mkdirSync(logDirectory, { recursive: true });
const result = spawnSync(
  process.execPath,
  [
    // Failures point at the TypeScript lines (tsconfig.json writes source maps).
    '--enable-source-maps',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    // A second copy of the results, for the list of the slowest suites below.
    '--test-reporter=tap',
    `--test-reporter-destination=${path.join(logDirectory, 'results.tap')}`,
    '--test-concurrency=2',
    ...flags,
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, AGENTD_TEST_RUN: run, AGENTD_TEST_LOG_DIR: logDirectory } },
);

/** The slowest top-level suites of the run, from the TAP copy: where the suite's time goes. */
function slowestSuites(count) {
  const tap = path.join(logDirectory, 'results.tap');
  if (!fs.existsSync(tap)) return [];
  const suites = [];
  let name = null;
  for (const line of fs.readFileSync(tap, 'utf8').split('\n')) {
    const ended = /^(?:not )?ok \d+ - (.*)$/.exec(line);
    if (ended) name = ended[1];
    const duration = /^  duration_ms: ([\d.]+)$/.exec(line);
    if (duration && name !== null) {
      suites.push({ name, seconds: Number(duration[1]) / 1000 });
      name = null;
    }
  }
  fs.rmSync(tap);
  return suites.sort((a, b) => b.seconds - a.seconds).slice(0, count);
}

// AGENTD_TEST_SLOWEST=N lists more of them (every suite with a large N).
const slowest = slowestSuites(Number(process.env.AGENTD_TEST_SLOWEST) || 15);
if (slowest.length > 0) {
  console.log('\nslowest suites (seconds):');
  for (const { name, seconds } of slowest) console.log(`  ${seconds.toFixed(1).padStart(7)}  ${name}`);
}

const checkStarted = Date.now();
const leaks = await findSecretsInLogs(logDirectory);
const logBytes = fs
  .readdirSync(logDirectory)
  .reduce((sum, name) => sum + fs.statSync(path.join(logDirectory, name)).size, 0);
if (leaks.length > 0) {
  console.log(`\nsecrets found in the logs of this run (kept in ${logDirectory}):`);
  for (const leak of leaks.slice(0, 50)) console.log(`  ${leak}`);
  if (leaks.length > 50) console.log(`  … and ${leaks.length - 50} more`);
} else {
  console.log(
    `\nlogs checked for secrets: none found (${Math.ceil(logBytes / 1024)} KiB in ${Date.now() - checkStarted} ms)`,
  );
  fs.rmSync(logDirectory, { recursive: true, force: true });
}

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
process.exit(leaks.length > 0 ? 1 : (result.status ?? 1));

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

// How long each test file took in a full run (test/durations.json, seconds by file): the longest start first, so
// that the files running side by side end close together rather than one long file running alone at the end.
// `AGENTD_TEST_RECORD_DURATIONS=1 npm test` writes this run's times there. A file not listed counts as the median.
const durationsFile = path.join(root, 'test', 'durations.json');
const knownDurations = fs.existsSync(durationsFile) ? JSON.parse(fs.readFileSync(durationsFile, 'utf8')) : {};
const sources = (roots.length ? roots : [path.join(root, 'test')]).flatMap(collect);
const sourceKey = (file) => path.relative(root, path.resolve(file)).split(path.sep).join('/');
const listed = Object.values(knownDurations).sort((a, b) => a - b);
const median = listed.length > 0 ? listed[Math.floor(listed.length / 2)] : 0;
const expectedSeconds = (file) => knownDurations[sourceKey(file)] ?? median;
const files = sources
  .map((file, index) => ({ file, index, seconds: expectedSeconds(file) }))
  .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
  .map(({ file }) => path.relative(process.cwd(), compiledFile(file)));
// Test files run side by side: AGENTD_TEST_CONCURRENCY, else 2 (this suite's own servers and browsers take the
// machine's cores).
const concurrency = Number(process.env.AGENTD_TEST_CONCURRENCY) || 2;
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
const resultsFile = path.join(logDirectory, 'results.jsonl');
const result = spawnSync(
  process.execPath,
  [
    // Failures point at the TypeScript lines (tsconfig.json writes source maps).
    '--enable-source-maps',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    // Each file's suites and their times, for the list of the slowest suites below and test/durations.json.
    `--test-reporter=${path.join(root, 'scripts', 'test-results-reporter.mjs')}`,
    `--test-reporter-destination=${resultsFile}`,
    `--test-concurrency=${concurrency}`,
    ...flags,
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, AGENTD_TEST_RUN: run, AGENTD_TEST_LOG_DIR: logDirectory } },
);

/** The top-level suites of the run, with their source file and seconds. */
function suitesOfRun() {
  if (!fs.existsSync(resultsFile)) return [];
  const suites = fs
    .readFileSync(resultsFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
  fs.rmSync(resultsFile);
  return suites;
}

/** A compiled test file's source, as test/durations.json names it. */
function sourceOfCompiled(file) {
  if (file === null) return null;
  return sourceKey(path.join(root, path.relative(compiledDirectory, file).replace(/\.js$/, '.ts')));
}

const suites = suitesOfRun();
// AGENTD_TEST_SLOWEST=N lists more of them (every suite with a large N).
const slowest = [...suites]
  .sort((a, b) => b.seconds - a.seconds)
  .slice(0, Number(process.env.AGENTD_TEST_SLOWEST) || 15);
if (slowest.length > 0) {
  console.log('\nslowest suites (seconds):');
  for (const { name, seconds } of slowest) console.log(`  ${seconds.toFixed(1).padStart(7)}  ${name}`);
}
if (process.env.AGENTD_TEST_RECORD_DURATIONS && roots.length === 0) {
  const byFile = {};
  for (const { file, seconds } of suites) {
    const source = sourceOfCompiled(file);
    if (source !== null) byFile[source] = (byFile[source] ?? 0) + seconds;
  }
  const ordered = Object.fromEntries(
    Object.entries(byFile)
      .sort((a, b) => b[1] - a[1])
      .map(([file, seconds]) => [file, Math.round(seconds * 10) / 10]),
  );
  fs.writeFileSync(durationsFile, `${JSON.stringify(ordered, null, 2)}\n`);
  console.log(`recorded the time of ${Object.keys(ordered).length} test files in test/durations.json`);
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

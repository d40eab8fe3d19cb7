/**
 * What reading per-agent metrics costs: seeds one agent with a row for every
 * minute of the retention (30 days, 43,200 rows) and 99 other agents of the
 * same account with a row every 10 minutes, and the hour rows the recorder
 * writes beside them (720 per agent), then times the repository reads behind
 * the routes (minute views read minute rows; hour and day views and usage read
 * hour rows), median of RUNS (default 20) after 3 warm-up runs.
 *
 *   node --import tsx bench/agent-metrics-read.ts [sqlite|postgres]
 *
 * SQLite: a new file in the temporary directory. PostgreSQL: a new database on
 * the server of DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres). Both removed at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isoTime } from '../src/clock.js';
import { emptyCounts, histogramBucketOf } from '../src/events/metric-counts.js';
import { openDatabase, type DatabaseHandle } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { AgentMetricsRepository, type MetricRow } from '../src/storage/repositories/agent-metrics.js';
import { createFreshDatabase } from '../test/helpers/postgres.js';

const dialect = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const runs = Number(process.env.RUNS ?? 20);
const minuteMs = 60_000;
const end = Date.parse('2026-11-22T00:00:00.000Z');
const start = end - 30 * 24 * 60 * minuteMs;
const accountId = 'acc_bench';

/** A minute's row of three messages, or an hour's row of `minutes` such minutes. */
function row(agentId: string, start: number, period: 'minute' | 'hour' = 'minute', minutes = 1): MetricRow {
  const counts = emptyCounts();
  counts.messages = 3 * minutes;
  counts.streamedMessages = minutes;
  counts.inputTokens = 300 * minutes;
  counts.outputTokens = 90 * minutes;
  (counts.latency[histogramBucketOf(800)] as number) += 3 * minutes;
  (counts.timeToFirstToken[histogramBucketOf(200)] as number) += minutes;
  return { accountId, agentId, period, bucketStart: isoTime(start), counts };
}

let handle: DatabaseHandle;
let cleanup: () => Promise<void>;
if (dialect === 'sqlite') {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-metrics-bench-'));
  handle = openDatabase({ kind: 'sqlite', file: path.join(directory, 'bench.sqlite') });
  cleanup = async () => fs.rmSync(directory, { recursive: true, force: true });
} else {
  const database = await createFreshDatabase(
    process.env.DATABASE_URL?.startsWith('postgres')
      ? process.env.DATABASE_URL
      : 'postgres://postgres@127.0.0.1:5432/postgres',
    'agentd_bench',
  );
  handle = openDatabase({ kind: 'postgres', url: database.url, poolSize: 4 });
  cleanup = () => database.drop();
}

try {
  await migrateToLatest(handle);
  const repository = new AgentMetricsRepository(handle.db);
  const seeded = performance.now();
  let rows: MetricRow[] = [];
  const flush = async () => {
    await repository.add(rows);
    rows = [];
  };
  for (let minute = start; minute < end; minute += minuteMs) {
    rows.push(row('agt_busy', minute));
    if (rows.length >= 5000) await flush();
  }
  for (let agent = 0; agent < 99; agent += 1) {
    for (let minute = start; minute < end; minute += 10 * minuteMs) {
      rows.push(row(`agt_other${String(agent).padStart(3, '0')}`, minute));
      if (rows.length >= 5000) await flush();
    }
  }
  // The hour rows the recorder writes beside the minutes.
  for (let hour = start; hour < end; hour += 60 * minuteMs) {
    rows.push(row('agt_busy', hour, 'hour', 60));
    for (let agent = 0; agent < 99; agent += 1) {
      rows.push(row(`agt_other${String(agent).padStart(3, '0')}`, hour, 'hour', 6));
    }
    if (rows.length >= 5000) await flush();
  }
  await flush();
  console.log(
    `${dialect}: seeded 43,200 + 99 × 4,320 minute rows and 100 × 720 hour rows in ${((performance.now() - seeded) / 1000).toFixed(1)} s\n`,
  );

  const day = 24 * 60 * minuteMs;
  const reads: Array<[string, () => Promise<unknown>]> = [
    [
      '24 h by minute (1,440 buckets)',
      () =>
        repository.buckets({
          accountId,
          agentId: 'agt_busy',
          from: isoTime(end - day),
          to: isoTime(end),
          size: 'minute',
        }),
    ],
    [
      '24 h by hour (default view)',
      () =>
        repository.buckets({
          accountId,
          agentId: 'agt_busy',
          from: isoTime(end - day),
          to: isoTime(end),
          size: 'hour',
        }),
    ],
    [
      '30 days by hour (720 buckets)',
      () =>
        repository.buckets({ accountId, agentId: 'agt_busy', from: isoTime(start), to: isoTime(end), size: 'hour' }),
    ],
    [
      '30 days by day',
      () => repository.buckets({ accountId, agentId: 'agt_busy', from: isoTime(start), to: isoTime(end), size: 'day' }),
    ],
    [
      'usage: account totals, 30 days',
      () => repository.accountTotals({ accountId, from: isoTime(start), to: isoTime(end) }),
    ],
    [
      'usage: per agent, 30 days, 100 agents',
      () => repository.totalsByAgent({ accountId, from: isoTime(start), to: isoTime(end), limit: 101 }),
    ],
  ];
  console.log('| read | median ms | p90 ms |');
  console.log('|---|---|---|');
  for (const [label, read] of reads) {
    for (let warm = 0; warm < 3; warm += 1) await read();
    const times: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now();
      await read();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (fraction: number) => times[Math.min(times.length - 1, Math.floor(fraction * times.length))]!;
    console.log(`| ${label} | ${at(0.5).toFixed(1)} | ${at(0.9).toFixed(1)} |`);
  }
} finally {
  await handle.close();
  await cleanup();
}

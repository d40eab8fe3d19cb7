/**
 * The task scheduler's cost: 10,000 enabled tasks across 1,000 agents, each
 * due once a minute (due times spread evenly over the minute: 167 due times a
 * second), claimed by the scheduler's own claim transaction every 250 ms, as
 * an instance's tick does, for one whole minute. Measures, per due time, the
 * delay from the due time to the commit of its claim (the run exists,
 * `queued`), and the SQL statements the claims sent (BEGIN and COMMIT, one
 * pair per claim, are not seen by the counting hook), on SQLite and PostgreSQL. Runs are claimed, not produced: the
 * reply is the runs core's cost, measured with messages.
 *
 *   npm run bench:task-scheduler -- [--dialect sqlite|postgres|both] [--agents 1000] [--tasks-per-agent 10]
 *                                   [--seconds 60] [--tick-ms 250]
 *
 * SQLite uses a new file in the temporary directory; PostgreSQL a new database
 * on the server of DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/ids.js';
import { createLogger } from '../src/logger.js';
import type { ServiceDeps } from '../src/services/context.js';
import type { PlatformRuntime } from '../src/services/platforms/platform-runtime.js';
import { claimBatch, TaskScheduler } from '../src/services/tasks/scheduler.js';
import { openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { createRepositories } from '../src/storage/repositories/index.js';
import type { Tracing } from '../src/tracing/tracing.js';

const { values: options } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'both' },
    agents: { type: 'string', default: '1000' },
    'tasks-per-agent': { type: 'string', default: '10' },
    seconds: { type: 'string', default: '60' },
    'tick-ms': { type: 'string', default: '250' },
  },
});
const agentCount = Number(options.agents);
const tasksPerAgent = Number(options['tasks-per-agent']);
const taskCount = agentCount * tasksPerAgent;
const seconds = Number(options.seconds);
const tickMs = Number(options['tick-ms']);
const intervalSeconds = 60;
const serverUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : 'postgres://postgres@127.0.0.1:5432/postgres';

/** Counts the statements sent to the database, by their first word, through the dialect's tracing hook. */
class StatementCounter implements Tracing {
  readonly counts = new Map<string, number>();
  startSpan(name: string) {
    const operation = name.split(' ')[0] ?? name;
    this.counts.set(operation, (this.counts.get(operation) ?? 0) + 1);
    return { setAttributes: () => undefined, fail: () => undefined, end: () => undefined };
  }
  runWithin<T>(_span: unknown, work: () => T): T {
    return work();
  }
  async shutdown(): Promise<void> {}
  total(): number {
    return [...this.counts.values()].reduce((sum, count) => sum + count, 0);
  }
  reset(): void {
    this.counts.clear();
  }
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-bench-tasks-'));
  const databaseName = `agentd_bench_${randomBytes(4).toString('hex')}`;
  const admin = dialect === 'postgres' ? new pg.Client({ connectionString: serverUrl }) : null;
  let databaseUrl: string | undefined;
  if (admin) {
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const config = loadConfig({
    AGENTD_DATA_DIR: dataDir,
    AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const logger = createLogger('warn');
  const counter = new StatementCounter();
  const handle = openDatabase(config.database, { logger, tracing: counter });
  try {
    await migrateToLatest(handle);
    const repositories = createRepositories(handle);
    const { db } = handle;
    const accountId = newId('account');
    const now = Date.now();
    const at = new Date(now).toISOString();
    await db.insertInto('accounts').values({ id: accountId, name: 'bench', created_at: at }).execute();
    // The claim reads agents for their status only; their profiles are not read.
    const agentIds = Array.from({ length: agentCount }, () => newId('agent'));
    for (let offset = 0; offset < agentCount; offset += 500) {
      await db
        .insertInto('agents')
        .values(
          agentIds.slice(offset, offset + 500).map((id, index) => ({
            id,
            account_id: accountId,
            name: `agent ${offset + index}`,
            sort_name: `agent ${offset + index}`,
            status: 'active',
            status_reason: null,
            deletion_protection: 0,
            profile: '{}',
            version: 1,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
    }
    // Due times spread evenly over one interval, starting once the load and the idle ticks are surely done.
    const firstDue = now + 20_000;
    const spacingMs = (intervalSeconds * 1000) / taskCount;
    const tasks = Array.from({ length: taskCount }, (_, index) => ({
      id: newId('task'),
      account_id: accountId,
      agent_id: agentIds[index % agentCount]!,
      name: `task ${index}`,
      instructions: 'Report.',
      schedule: JSON.stringify({ everySeconds: intervalSeconds }),
      output: JSON.stringify({ type: 'none' }),
      enabled: 1,
      paused_reason: null,
      next_due_at: new Date(firstDue + Math.floor(index * spacingMs)).toISOString(),
      last_run_id: null,
      last_run_at: null,
      last_run_status: null,
      last_error: null,
      consecutive_failures: 0,
      created_at: at,
      updated_at: at,
    }));
    for (let offset = 0; offset < taskCount; offset += 500) {
      await db
        .insertInto('tasks')
        .values(tasks.slice(offset, offset + 500))
        .execute();
    }
    // What autovacuum does after a load this size: statistics for the planner.
    if (dialect === 'postgres') await sql`analyze`.execute(db);

    // What the claim uses of the service: the repositories, the clock, the log and this instance's id.
    const deps = {
      repositories,
      clock: systemClock,
      logger,
      runs: { instanceId: 'bench-instance' },
    } as unknown as ServiceDeps;
    const scheduler = new TaskScheduler({
      deps,
      platforms: null as unknown as PlatformRuntime,
      settings: { schedule: false, minIntervalSeconds: 60, tickMs, concurrency: 1_000_000 },
    });

    // Idle: a tick when nothing is due.
    counter.reset();
    const idleTicks = 20;
    for (let index = 0; index < idleTicks; index += 1) await scheduler.claim(Date.now(), claimBatch);
    const idleStatements = counter.total() / idleTicks;

    if (Date.now() >= firstDue) throw new Error('the load took longer than the lead time before the first due time');
    process.stderr.write(`${dialect}: ${taskCount} tasks on ${agentCount} agents, claiming for ${seconds} s\n`);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstDue - Date.now())));
    counter.reset();
    const delays: number[] = [];
    const claimDurations: number[] = [];
    let ticks = 0;
    const endAt = Date.now() + seconds * 1000;
    while (Date.now() < endAt) {
      const tickStarted = Date.now();
      ticks += 1;
      // One tick: batches until fewer than a full batch were due.
      for (;;) {
        const started = performance.now();
        const orders = await scheduler.claim(Date.now(), claimBatch);
        const committed = Date.now();
        claimDurations.push(performance.now() - started);
        for (const order of orders) delays.push(committed - Date.parse(order.dueAt as string));
        if (orders.length < claimBatch) break;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, tickMs - (Date.now() - tickStarted))));
    }
    const statements = counter.total();
    const byOperation = [...counter.counts].map(([operation, count]) => `${operation} ${count}`).join(', ');
    delays.sort((a, b) => a - b);
    claimDurations.sort((a, b) => a - b);
    const runRows = await db
      .selectFrom('runs')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('runs'),
        eb.fn.count<number | string>('due_at').distinct().as('due'),
      ])
      .executeTakeFirstOrThrow();
    const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    const line =
      `| ${label} | ${delays.length} | ${percentile(delays, 0.5)} | ${percentile(delays, 0.99)} | ` +
      `${delays.at(-1)} | ${percentile(claimDurations, 0.5).toFixed(2)} | ${percentile(claimDurations, 0.99).toFixed(2)} | ` +
      `${(statements / Math.max(1, delays.length)).toFixed(2)} | ${idleStatements.toFixed(1)} |`;
    process.stderr.write(
      `${label}: ${ticks} ticks, ${statements} statements (${byOperation}); runs ${runRows.runs}, distinct due times ${runRows.due}\n`,
    );
    return line;
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (admin) {
      await admin.query(`drop database if exists ${databaseName}`);
      await admin.end();
    }
  }
}

const dialects: Array<'sqlite' | 'postgres'> =
  options.dialect === 'both' ? ['sqlite', 'postgres'] : [options.dialect as 'sqlite' | 'postgres'];
const lines: string[] = [];
for (const dialect of dialects) lines.push(await run(dialect));
process.stdout.write(
  `\n${taskCount} tasks on ${agentCount} agents, each due every ${intervalSeconds} s; claims every ${tickMs} ms for ${seconds} s\n\n` +
    '| database | due times claimed | delay p50 (ms) | delay p99 (ms) | delay max (ms) | claim p50 (ms) | claim p99 (ms) | statements per due time | statements per idle tick |\n' +
    '|---|---|---|---|---|---|---|---|---|\n' +
    `${lines.join('\n')}\n`,
);

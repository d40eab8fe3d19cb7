/**
 * graphile-worker as the engine of durable runs: enqueue → start latency and takeover after a SIGKILL.
 *
 *   ENGINES_DIR=/tmp/agentd-run-engines node --import tsx bench/run-engines/graphile-worker.ts
 *
 * Latency (JOBS, default 500, after 10 warm-up): one `addJob` at a time, waiting for the one worker process to
 * start it; from just before `addJob` to the start of the task (graphile-worker wakes on LISTEN/NOTIFY, so the
 * poll interval does not enter).
 *
 * Takeover (TAKEOVERS, default 5): a victim process starts the job and hangs; a second worker process runs;
 * the bench SIGKILLs the victim. graphile-worker frees a job locked by a vanished worker only when its
 * `locked_at` is 4 hours old (fixed in its SQL, not an option), swept every 8–10 minutes; the bench checks
 * that after WAIT_SECONDS (default 20) the job is still locked by the dead worker and not started elsewhere,
 * then does what an own liveness check would have to do — `forceUnlockWorkers([dead worker id])` — and times
 * from that call to the second process starting the job (it finds it on its next poll: pollInterval 2 s by
 * default, POLL_MS for the survivor).
 */
import pg from 'pg';
import {
  clock,
  formatSummary,
  freshDatabase,
  loadEngine,
  machineLine,
  randomPause,
  summarize,
  WorkerProcess,
} from './engines.js';

const jobs = Number(process.env.JOBS ?? 500);
const takeovers = Number(process.env.TAKEOVERS ?? 5);
const waitSeconds = Number(process.env.WAIT_SECONDS ?? 20);
const { module: graphile, version } = loadEngine('graphile-worker');
console.log(`# graphile-worker ${version} — ${machineLine()}`);

async function utilities(url: string) {
  const utils = await graphile.makeWorkerUtils({ connectionString: url, logger: new graphile.Logger(() => () => {}) });
  await utils.migrate();
  return utils;
}

async function latency(): Promise<void> {
  const database = await freshDatabase('run_engines_graphile');
  const utils = await utilities(database.url);
  const worker = new WorkerProcess('graphile-worker', 'worker', { BENCH_DATABASE_URL: database.url });
  try {
    await worker.ready();
    const enqueue: number[] = [];
    const toStart: number[] = [];
    for (let index = 0; index < 10 + jobs; index += 1) {
      await randomPause(50);
      const sentAt = clock();
      const job = await utils.addJob('agent_run', { index });
      const sent = clock();
      const started = await worker.next(
        (message) => message.type === 'started' && message.id === String(job.id),
        30_000,
      );
      if (index < 10) continue;
      enqueue.push(sent - sentAt);
      toStart.push(started.at! - sentAt);
    }
    console.log(formatSummary('graphile-worker addJob() call', summarize(enqueue)));
    console.log(formatSummary('graphile-worker enqueue → start (LISTEN/NOTIFY)', summarize(toStart)));
  } finally {
    await worker.stop();
    await utils.release();
    await database.drop();
  }
}

async function takeover(survivorPollMs: string): Promise<void> {
  const database = await freshDatabase('run_engines_graphile');
  const utils = await utilities(database.url);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const afterUnlock: number[] = [];
  try {
    for (let trial = 0; trial < takeovers; trial += 1) {
      const victim = new WorkerProcess('graphile-worker', 'victim', { BENCH_DATABASE_URL: database.url });
      await victim.ready();
      const job = await utils.addJob('agent_run', { trial });
      const started = await victim.next(
        (message) => message.type === 'started' && message.id === String(job.id),
        30_000,
      );
      const survivor = new WorkerProcess('graphile-worker', 'worker', {
        BENCH_DATABASE_URL: database.url,
        POLL_MS: survivorPollMs,
      });
      await survivor.ready();
      victim.kill();
      if (trial === 0) {
        await new Promise((resolve) => setTimeout(resolve, waitSeconds * 1000));
        const lock = await client.query(
          `select locked_by, locked_at, locked_at + interval '4 hours' as freed_after from graphile_worker.jobs where id = $1`,
          [job.id],
        );
        const row = lock.rows[0] as { locked_by: string; locked_at: Date; freed_after: Date };
        const taken = survivor.messages.some((message) => message.type === 'started' && message.id === String(job.id));
        console.log(
          `graphile-worker: ${waitSeconds} s after the SIGKILL the job is ${taken ? 'TAKEN OVER' : 'not taken over'}; ` +
            `locked_by ${row.locked_by === started.lockedBy ? 'the dead worker' : row.locked_by}, ` +
            `freed by the stale-lock sweep after ${row.freed_after.toISOString()} (locked_at + 4 h)`,
        );
      }
      const unlockAt = clock();
      await utils.forceUnlockWorkers([started.lockedBy!]);
      const resumed = await survivor.next(
        (message) => message.type === 'started' && message.id === String(job.id),
        60_000,
      );
      afterUnlock.push(resumed.at! - unlockAt);
      await survivor.stop();
    }
    console.log(
      formatSummary(
        `graphile-worker forceUnlockWorkers → restart (survivor poll ${survivorPollMs} ms)`,
        summarize(afterUnlock),
      ),
    );
  } finally {
    await client.end();
    await utils.release();
    await database.drop();
  }
}

if (process.env.SKIP_LATENCY !== '1') await latency();
await takeover('2000');
await takeover('500');

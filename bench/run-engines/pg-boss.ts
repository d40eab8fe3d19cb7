/**
 * pg-boss as the engine of durable runs: enqueue → start latency and takeover after a SIGKILL.
 *
 *   ENGINES_DIR=/tmp/agentd-run-engines node --import tsx bench/run-engines/pg-boss.ts
 *
 * Latency (JOBS, default 500 per setting, after 10 warm-up): the bench sends one job at a time and waits for
 * the one worker process to start it; the time is from just before `send` to the start of the handler (both
 * clocks of this machine), each after a random pause of up to one poll interval (see randomPause). pg-boss 10
 * polls: the default (pollingIntervalSeconds 2) and its minimum (0.5).
 *
 * Takeover (TAKEOVERS, default 5): a victim process starts the job and hangs; a second process is connected
 * and polling; the bench SIGKILLs the victim and times until the second process starts the same job. pg-boss
 * 10 has no heartbeat: an active job is given up only when `expireIn` has passed since it started (then a
 * maintenance pass moves it to retry, and a poll picks it up). Measured at the tightest settings it accepts
 * (expireInSeconds 1, maintenanceIntervalSeconds 1, pollingIntervalSeconds 0.5); the default (expireIn 15
 * minutes, maintenance every 120 s, poll 2 s) is stated from its code, not waited for.
 */
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
const queueName = 'agent-runs';
const { module: pgBoss, version } = loadEngine('pg-boss');
// pg-boss 10 exports the class itself; 11 and later export it by name.
const PgBoss = pgBoss.PgBoss ?? pgBoss.default ?? pgBoss;
const major = version.split('.')[0]!;
// pg-boss 12 (Node 22 and later) has a job heartbeat: heartbeatSeconds, at least 10.
const heartbeatSeconds = Number(major) >= 12 ? Number(process.env.HEARTBEAT_SECONDS ?? 10) : undefined;
console.log(`# pg-boss ${version} — ${machineLine()}`);

async function latency(label: string, pollMs: number, environment: Record<string, string>): Promise<void> {
  const database = await freshDatabase('run_engines_pgboss');
  const boss = new PgBoss({ connectionString: database.url, supervise: false, schedule: false });
  boss.on('error', (error: Error) => console.error(error.message));
  await boss.start();
  await boss.createQueue(queueName);
  const worker = new WorkerProcess('pg-boss', 'worker', {
    BENCH_DATABASE_URL: database.url,
    PG_BOSS_MAJOR: major,
    ...environment,
  });
  try {
    await worker.ready();
    const enqueue: number[] = [];
    const toStart: number[] = [];
    for (let index = 0; index < 10 + jobs; index += 1) {
      await randomPause(pollMs);
      const sentAt = clock();
      const id = (await boss.send(queueName, { index })) as string;
      const sent = clock();
      const started = await worker.next((message) => message.type === 'started' && message.id === id, 30_000);
      if (index < 10) continue;
      enqueue.push(sent - sentAt);
      toStart.push(started.at! - sentAt);
    }
    console.log(formatSummary(`pg-boss send() call (${label})`, summarize(enqueue)));
    console.log(formatSummary(`pg-boss enqueue → start (${label})`, summarize(toStart)));
  } finally {
    await worker.stop();
    await boss.stop({ graceful: false, wait: true });
    await database.drop();
  }
}

async function takeover(): Promise<void> {
  const database = await freshDatabase('run_engines_pgboss');
  const boss = new PgBoss({ connectionString: database.url, supervise: false, schedule: false });
  boss.on('error', (error: Error) => console.error(error.message));
  await boss.start();
  // Without a heartbeat, expireIn is also the longest a job may run; with one, it can stay long (an hour here).
  await boss.createQueue(
    queueName,
    heartbeatSeconds === undefined
      ? { expireInSeconds: 1, retryLimit: 100, retryDelay: 0 }
      : { expireInSeconds: 3600, heartbeatSeconds, retryLimit: 100, retryDelay: 0 },
  );
  const tight = {
    BENCH_DATABASE_URL: database.url,
    POLL_SECONDS: '0.5',
    MAINTENANCE_SECONDS: '1',
    PG_BOSS_MAJOR: major,
  };
  const setting =
    heartbeatSeconds === undefined
      ? 'expireIn 1 s, maintenance 1 s, poll 0.5 s'
      : `heartbeat ${heartbeatSeconds} s, supervise/monitor 1 s, poll 0.5 s`;
  const fromKill: number[] = [];
  const fromStart: number[] = [];
  try {
    for (let trial = 0; trial < takeovers; trial += 1) {
      const victim = new WorkerProcess('pg-boss', 'victim', tight);
      const survivor = new WorkerProcess('pg-boss', 'worker', { ...tight, DEFER_WORK: '1' });
      await Promise.all([victim.ready(), survivor.ready()]);
      const id = (await boss.send(queueName, { trial })) as string;
      const started = await victim.next((message) => message.type === 'started' && message.id === id, 30_000);
      const killedAt = victim.kill();
      survivor.child.send({ type: 'go' });
      const resumed = await survivor.next((message) => message.type === 'started' && message.id === id, 120_000);
      fromKill.push(resumed.at! - killedAt);
      fromStart.push(resumed.at! - started.at!);
      await survivor.stop();
    }
    console.log(formatSummary(`pg-boss takeover, SIGKILL → restart (${setting})`, summarize(fromKill)));
    console.log(formatSummary(`pg-boss takeover, job start → restart (${setting})`, summarize(fromStart)));
  } finally {
    await boss.stop({ graceful: false, wait: true });
    await database.drop();
  }
}

if (process.env.SKIP_LATENCY !== '1') {
  await latency('default: poll 2 s', 2000, {});
  await latency('tightest: poll 0.5 s', 500, { POLL_SECONDS: '0.5' });
}
await takeover();

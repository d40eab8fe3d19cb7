/**
 * DBOS Transact as the engine of durable runs: start latency, the cost of a checkpointed step, and recovery
 * after a SIGKILL.
 *
 *   ENGINES_DIR=/tmp/agentd-run-engines node --import tsx bench/run-engines/dbos.ts
 *
 * In this process (JOBS, default 500, after 10 warm-up):
 *   - DBOS.startWorkflow → the workflow's body begins (a run started by the instance that received the
 *     request: the way agentd would start one);
 *   - DBOS.runStep per step (STEPS, default 1,000 per size), a step returning 60 B and 4 KiB: each is one
 *     checkpoint row written before the workflow goes on — compare claim-baseline.ts's run_steps insert.
 * Through a queue to one worker process (JOBS): DBOSClient.enqueue → the workflow begins in the worker; the
 * queue is polled, every minPollingIntervalMs (default 1,000; 100 measured too); each job after a random
 * pause of up to one interval (see randomPause).
 * Recovery (TAKEOVERS, default 5): a victim process starts a 6-step workflow itself and hangs inside step 4;
 * the bench SIGKILLs it, and
 *   A. starts a new process with the same executor ID (what DBOS does by default: a restarted process
 *      recovers its own PENDING workflows at launch) — timed from the kill to step 4 running again;
 *   B. with a second process of another executor ID already running, checks after WAIT_SECONDS (default 20)
 *      that nothing took the workflow over (without DBOS Conductor nothing watches executors), then has that
 *      process recover the dead executor's workflows (the executor's recoverPendingWorkflows, which the admin
 *      endpoint of earlier versions called) — timed from that call to step 4 running.
 * In both, steps 1–3 must not run again (replayed from their checkpoints).
 */
import pg from 'pg';
import {
  clock,
  formatSummary,
  freshDatabase,
  loadEngine,
  machineLine,
  randomPause,
  requireEngine,
  summarize,
  WorkerProcess,
} from './engines.js';

const jobs = Number(process.env.JOBS ?? 500);
const steps = Number(process.env.STEPS ?? 1000);
const takeovers = Number(process.env.TAKEOVERS ?? 5);
const waitSeconds = Number(process.env.WAIT_SECONDS ?? 20);
const applicationName = 'agentd-run-engines';
const queueName = 'agent-runs';
const { module: dbos, version } = loadEngine('@dbos-inc/dbos-sdk');
const { DBOS, DBOSClient } = dbos;
console.log(`# @dbos-inc/dbos-sdk ${version} — ${machineLine()}`);

async function inProcess(): Promise<void> {
  const database = await freshDatabase('run_engines_dbos');
  const startedAt = new Map<number, number>();
  const smallOutput = { type: 'tool-result', toolCallId: 'call_1', output: { ok: true } };
  const largeOutput = { type: 'text', text: 'x'.repeat(4096) };
  DBOS.setConfig({
    name: applicationName,
    systemDatabaseUrl: database.url,
    logLevel: 'error',
    listenQueues: ['in-process-only'],
  });
  const emptyRun = DBOS.registerWorkflow(
    async (index: number) => {
      startedAt.set(index, clock());
      return index;
    },
    { name: 'emptyRun' },
  );
  // Each checkpoint is paired with the baseline write (begin; insert into run_steps; commit, on its own
  // connection to the same database) right after it, so that the load of the shared machine falls on both alike.
  const baseline = new pg.Client({ connectionString: database.url });
  const stepRun = DBOS.registerWorkflow(
    async (count: number, large: boolean) => {
      const checkpoint: number[] = [];
      const insert: number[] = [];
      const output = large ? largeOutput : smallOutput;
      const runId = DBOS.workflowID as string;
      for (let step = 0; step < count; step += 1) {
        let start = performance.now();
        await DBOS.runStep(async () => output, { name: 'model-step' });
        checkpoint.push(performance.now() - start);
        start = performance.now();
        await baseline.query('begin');
        await baseline.query({
          name: 'insert-step',
          text: 'insert into run_steps (run_id, step, output) values ($1, $2, $3)',
          values: [runId, step, JSON.stringify(output)],
        });
        await baseline.query('commit');
        insert.push(performance.now() - start);
      }
      return { checkpoint, insert };
    },
    { name: 'stepRun' },
  );
  await DBOS.launch();
  await baseline.connect();
  await baseline.query(
    'create table run_steps (run_id text not null, step integer not null, output text not null, primary key (run_id, step))',
  );
  // Statements DBOS sends per run and per step, whatever the machine's load: node-postgres's query calls (DBOS's
  // own pg, from ENGINES_DIR; the baseline's pg is agentd's and is not counted).
  const enginePg = requireEngine('pg');
  const query = enginePg.Client.prototype.query;
  let statements = 0;
  enginePg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    statements += 1;
    return query.apply(this, args);
  };
  const countStatements = async (work: () => Promise<unknown>) => {
    const before = statements;
    await work();
    return statements - before;
  };
  const runStatements = await countStatements(async () => (await DBOS.startWorkflow(emptyRun)(-1)).getResult());
  const noSteps = await countStatements(async () => (await DBOS.startWorkflow(stepRun)(0, false)).getResult());
  const hundredSteps = await countStatements(async () => (await DBOS.startWorkflow(stepRun)(100, false)).getResult());
  console.log(
    `DBOS statements: ${runStatements} for an empty workflow (start to result), ` +
      `${((hundredSteps - noSteps) / 100).toFixed(1)} per runStep (the baseline: 3, or 1 in autocommit)`,
  );
  try {
    const call: number[] = [];
    const toStart: number[] = [];
    for (let index = 0; index < 10 + jobs; index += 1) {
      const before = clock();
      const handle = await DBOS.startWorkflow(emptyRun)(index);
      const returned = clock();
      await handle.getResult();
      if (index < 10) continue;
      call.push(returned - before);
      toStart.push(startedAt.get(index)! - before);
    }
    console.log(formatSummary('DBOS startWorkflow() call, in process', summarize(call)));
    console.log(formatSummary('DBOS startWorkflow → workflow body, in process', summarize(toStart)));
    for (const large of [false, true]) {
      await DBOS.startWorkflow(stepRun)(50, large).then((handle: any) => handle.getResult());
      const { checkpoint, insert } = (await (await DBOS.startWorkflow(stepRun)(steps, large)).getResult()) as {
        checkpoint: number[];
        insert: number[];
      };
      const size = large ? '4 KiB' : '60 B';
      console.log(formatSummary(`DBOS runStep checkpoint (${size} output)`, summarize(checkpoint)));
      console.log(
        formatSummary(`  paired baseline: begin; insert into run_steps; commit (${size})`, summarize(insert)),
      );
    }
  } finally {
    await baseline.end();
    await DBOS.shutdown();
    await database.drop();
  }
}

async function throughQueue(pollingMs: number): Promise<void> {
  const database = await freshDatabase('run_engines_dbos');
  // The system database is created by the worker's launch; the client needs its tables.
  const first = new WorkerProcess('dbos', 'worker', { BENCH_DATABASE_URL: database.url, DBOS__VMID: 'worker-a' });
  await first.ready();
  const client = await DBOSClient.create({ systemDatabaseUrl: database.url, applicationName });
  await client.registerQueue(queueName, { minPollingIntervalMs: pollingMs, onConflict: 'always_update' });
  await first.stop();
  // A worker launched after the queue exists dispatches from it from the start.
  const worker = new WorkerProcess('dbos', 'worker', { BENCH_DATABASE_URL: database.url, DBOS__VMID: 'worker-a' });
  try {
    await worker.ready();
    const call: number[] = [];
    const toStart: number[] = [];
    for (let index = 0; index < 10 + jobs; index += 1) {
      await randomPause(pollingMs);
      const before = clock();
      const handle = await client.enqueue({ queueName, workflowName: 'agentRun' }, { steps: 0 });
      const returned = clock();
      const started = await worker.next(
        (message) => message.type === 'started' && message.id === handle.workflowID,
        60_000,
      );
      if (index < 10) continue;
      call.push(returned - before);
      toStart.push(started.at! - before);
    }
    console.log(formatSummary(`DBOSClient.enqueue() call (queue polled every ${pollingMs} ms)`, summarize(call)));
    console.log(formatSummary(`DBOS enqueue → start in a worker process (poll ${pollingMs} ms)`, summarize(toStart)));
  } finally {
    await worker.stop();
    await client.destroy();
    await database.drop();
  }
}

async function recovery(): Promise<void> {
  const database = await freshDatabase('run_engines_dbos');
  const sql = new pg.Client({ connectionString: database.url });
  const restart: number[] = [];
  const restartReady: number[] = [];
  const recoverCall: number[] = [];
  try {
    for (let trial = 0; trial < takeovers; trial += 1) {
      for (const mode of ['restart', 'other executor'] as const) {
        const victimId = `executor-victim-${trial}-${mode === 'restart' ? 'r' : 'o'}`;
        const victim = new WorkerProcess('dbos', 'victim', {
          BENCH_DATABASE_URL: database.url,
          DBOS__VMID: victimId,
          HANG_AT_STEP: '4',
        });
        await victim.ready();
        if (trial === 0 && mode === 'restart') await sql.connect();
        const survivor =
          mode === 'other executor'
            ? new WorkerProcess('dbos', 'worker', {
                BENCH_DATABASE_URL: database.url,
                DBOS__VMID: `executor-b-${trial}`,
              })
            : undefined;
        await survivor?.ready();
        victim.child.send({ type: 'start', steps: 6 });
        const hung = await victim.next((message) => message.type === 'step' && message.step === 4, 30_000);
        const workflowId = hung.id!;
        const killedAt = victim.kill();
        let resumer: WorkerProcess;
        let from: number;
        if (mode === 'restart') {
          resumer = new WorkerProcess('dbos', 'worker', { BENCH_DATABASE_URL: database.url, DBOS__VMID: victimId });
          from = killedAt;
          await resumer.ready();
          restartReady.push(clock() - killedAt);
        } else {
          resumer = survivor!;
          if (trial === 0) {
            await new Promise((resolve) => setTimeout(resolve, waitSeconds * 1000));
            const status = await sql.query(
              `select status, executor_id from dbos.workflow_status where workflow_uuid = $1`,
              [workflowId],
            );
            const row = status.rows[0] as { status: string; executor_id: string };
            const taken = resumer.messages.some((message) => message.type === 'step' && message.id === workflowId);
            console.log(
              `DBOS: ${waitSeconds} s after the SIGKILL, with another executor running, the workflow is ` +
                `${taken ? 'TAKEN OVER' : 'not taken over'}: status ${row.status}, executor ${row.executor_id === victimId ? 'the dead one' : row.executor_id}`,
            );
          }
          from = clock();
          resumer.child.send({ type: 'recover', executorIds: [victimId] });
        }
        const resumed = await resumer.next(
          (message) => message.type === 'step' && message.id === workflowId && message.step === 4,
          120_000,
        );
        const replayed = resumer.messages.filter(
          (message) => message.type === 'step' && message.id === workflowId && message.step! < 4,
        );
        if (replayed.length > 0) throw new Error(`steps ${replayed.map((m) => m.step).join(', ')} ran again`);
        (mode === 'restart' ? restart : recoverCall).push(resumed.at! - from);
        await resumer.stop();
      }
    }
    console.log(formatSummary('DBOS restart, same executor ID: kill → step 4 runs again', summarize(restart)));
    console.log(formatSummary('  of which: kill → new process launched (node + DBOS.launch)', summarize(restartReady)));
    console.log(formatSummary('DBOS recoverPendingWorkflows([dead]) → step 4 runs again', summarize(recoverCall)));
  } finally {
    await sql.end();
    await database.drop();
  }
}

// PARTS: which parts to run (default all): in-process, queue, recovery.
const parts = (process.env.PARTS ?? 'in-process,queue,recovery').split(',');
if (parts.includes('in-process')) await inProcess();
if (parts.includes('queue')) {
  await throughQueue(1000);
  await throughQueue(100);
}
if (parts.includes('recovery')) await recovery();

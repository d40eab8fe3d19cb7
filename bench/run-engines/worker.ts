/**
 * One worker process of a run-engine bench: `worker.ts <pg-boss|graphile-worker|dbos> <role>`, forked by
 * engines.ts (WorkerProcess). Its settings come from the environment: BENCH_DATABASE_URL, and the library's
 * knobs (POLL_SECONDS, MAINTENANCE_SECONDS, POLL_MS, DBOS__VMID). Roles:
 *   worker  — finishes every job at once (enqueue → start latency; the process that takes over);
 *   victim  — starts a job (runs DBOS steps up to HANG_AT_STEP) and then hangs until it is SIGKILLed.
 * It reports over IPC: `ready` once it takes work, `started` when a job's handler begins, `step` when a DBOS
 * step actually runs (a step replayed from its checkpoint sends nothing).
 */
import { clock, loadEngine, requireEngine, type WorkerMessage } from './engines.js';

const [engine, role] = process.argv.slice(2) as [string, string];
const databaseUrl = process.env.BENCH_DATABASE_URL as string;
export const queueName = 'agent-runs';

function send(message: WorkerMessage): void {
  process.send?.(message);
}
const hang = () => new Promise<never>(() => {});
const numberFrom = (name: string, fallback: number) =>
  process.env[name] === undefined ? fallback : Number(process.env[name]);

process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));

/** With DEFER_WORK set the worker connects at once but takes jobs only after the bench says `go`. */
function whenToWork(): Promise<void> {
  if (!process.env.DEFER_WORK) return Promise.resolve();
  return new Promise((resolve) =>
    process.on('message', (message: { type: string }) => {
      if (message.type === 'go') resolve();
    }),
  );
}

if (engine === 'pg-boss') {
  const { module: pgBoss } = loadEngine('pg-boss');
  // pg-boss 10 exports the class itself; 11 and later export it by name.
  const PgBoss = pgBoss.PgBoss ?? pgBoss.default ?? pgBoss;
  const settings: Record<string, unknown> = { connectionString: databaseUrl, schedule: false };
  if (process.env.MAINTENANCE_SECONDS) {
    // pg-boss 10 expires jobs in its maintenance pass; 11 and later in supervise and monitor passes.
    settings.maintenanceIntervalSeconds = Number(process.env.MAINTENANCE_SECONDS);
    if (process.env.PG_BOSS_MAJOR !== '10') {
      settings.superviseIntervalSeconds = Number(process.env.MAINTENANCE_SECONDS);
      settings.monitorIntervalSeconds = Number(process.env.MAINTENANCE_SECONDS);
    }
  }
  const boss = new PgBoss(settings);
  boss.on('error', (error: Error) => send({ type: 'log', text: `pg-boss error: ${error.message}` }));
  await boss.start();
  send({ type: 'ready' });
  await whenToWork();
  const workOptions: Record<string, unknown> = { batchSize: 1 };
  if (process.env.POLL_SECONDS) workOptions.pollingIntervalSeconds = Number(process.env.POLL_SECONDS);
  await boss.work(queueName, workOptions, async ([job]: Array<{ id: string }>) => {
    send({ type: 'started', id: job!.id, at: clock() });
    if (role === 'victim') await hang();
  });
} else if (engine === 'graphile-worker') {
  const { module: graphile } = loadEngine('graphile-worker');
  const quiet = new graphile.Logger(() => () => {});
  await graphile.run({
    connectionString: databaseUrl,
    concurrency: 1,
    noHandleSignals: true,
    pollInterval: numberFrom('POLL_MS', 2000),
    logger: quiet,
    taskList: {
      agent_run: async (_payload: unknown, helpers: { job: { id: string; attempts: number; locked_by: string } }) => {
        send({
          type: 'started',
          id: String(helpers.job.id),
          attempt: helpers.job.attempts,
          lockedBy: helpers.job.locked_by,
          at: clock(),
        });
        if (role === 'victim') await hang();
      },
    },
  });
  send({ type: 'ready' });
} else if (engine === 'dbos') {
  const { module: dbos } = loadEngine('@dbos-inc/dbos-sdk');
  const { DBOS } = dbos;
  const hangAt = numberFrom('HANG_AT_STEP', 0);
  DBOS.setConfig({ name: 'agentd-run-engines', systemDatabaseUrl: databaseUrl, logLevel: 'error' });
  // The same registration in every process (and in dbos.ts): recovery only resumes a workflow in a process whose
  // registered code has the same application version.
  const agentRun = DBOS.registerWorkflow(
    async (input: { steps: number }) => {
      const id = DBOS.workflowID as string;
      send({ type: 'started', id, at: clock() });
      for (let step = 1; step <= input.steps; step += 1) {
        await DBOS.runStep(
          async () => {
            send({ type: 'step', id, step, at: clock() });
            if (role === 'victim' && step === hangAt) await hang();
            return { step };
          },
          { name: `step-${step}` },
        );
      }
      return 'done';
    },
    { name: 'agentRun' },
  );
  await DBOS.launch();
  process.on('message', async (message: { type: string; executorIds?: string[]; steps?: number }) => {
    // The instance that received the request runs the run itself: DBOS.startWorkflow in this process.
    if (message.type === 'start') await DBOS.startWorkflow(agentRun)({ steps: message.steps });
    if (message.type !== 'recover') return;
    // DBOS 5 removed the admin server whose endpoint did this; the executor's method is what is left.
    const { DBOSExecutor } = requireEngine('@dbos-inc/dbos-sdk/internal/dbos-executor');
    await DBOSExecutor.globalInstance.recoverPendingWorkflows(message.executorIds);
  });
  send({ type: 'ready' });
} else {
  throw new Error(`unknown engine ${engine}`);
}

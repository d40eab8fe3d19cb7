import { generateApiKey } from '../../src/security/api-key-secret.js';
import { callJson, type JsonAnswer } from '../helpers/call-json.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { startFakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { startSideEffectCounter } from '../helpers/side-effect-counter.js';
import { readEvents } from '../helpers/sse-client.js';
import { waitFor } from '../helpers/wait.js';
import { startInstancePair } from './takeover-pair.js';
import { keyOf, markedText, repeatedAsks, replyFor, scriptTakeoverFleet } from './takeover-script.js';

/**
 * The takeover fleet run: two instances on PostgreSQL and Redis, replies
 * streamed over 1–3 s, one instance killed with SIGKILL every `killEveryMs`
 * (the two in turn) and started again under a new instance id, while
 * - tasks fall due every `taskEverySeconds` (output `webhook` or `none`),
 * - background runs are started on either instance, spread over the run,
 *   one in four on an agent whose model calls a read-only tool and a tool
 *   with side effects (the http plugin's GET and POST, at a counting server),
 * - before each kill, background runs are started on the instance about to
 *   die and followed on the other one, so the kill cuts them mid-stream.
 * Afterwards (once every run had the takeover bound and a reply's time to
 * end), from the outside: every task due time completed, every background
 * run completed with its whole reply, every followed stream ended with
 * `message.completed` carrying the whole reply, no model step the fake had
 * answered completely asked again after the journal had it, and no call with
 * side effects made twice.
 */
export interface TakeoverFleetOptions {
  durationMs: number;
  killEveryMs: number;
  tasks: number;
  taskEverySeconds: number;
  backgroundRuns: number;
  followedStreams: number;
  /** AGENTD_RUN_STALE_MS and AGENTD_RUN_HEARTBEAT_MS; the defaults (10 s, 2 s) when not given. */
  staleMs?: number;
  heartbeatMs?: number;
  /** Milliseconds between streamed words (replies have 21 to 41). */
  tokenDelayMs?: number;
  postgresUrl: string;
  redisUrl: string;
  /** Another build's main.js to run (see takeover-run.ts); default dist/. */
  script?: string;
  log?: (line: string) => void;
}

export interface TakeoverFleetResult {
  kills: number;
  restartMs: number[];
  tasks: { tasks: number; dueTimes: number; completed: number; takenOver: number; webhookEvents: number };
  background: { started: number; acknowledged: number; completed: number; takenOver: number; unacknowledged: number };
  streams: { followed: number; completed: number; resumedSeen: number; takeoverMs: number[] };
  tools: {
    runs: number;
    startedBeforeKill: number;
    effects: number;
    repeatedEffects: number;
    reads: number;
    repeatedReads: number;
  };
  model: { requests: number; completed: number; repeatedKeys: number; repeatedAfterJournal: number };
  /** Runs taken over at least once, and log lines of takeovers that failed. */
  takenOverRuns: number;
  takeoverFailures: number;
  losses: string[];
}

const defaultStaleMs = 10_000;
const defaultHeartbeatMs = 2_000;

interface Started {
  marker: string;
  agentId: string;
  runId: string;
}

interface Followed extends Started {
  killedAt: number | null;
  resumedAt: number | null;
  sawDelta: Promise<boolean>;
  /** What a client shows: the deltas, replaced by `run.resumed`'s text. */
  shown: string;
  last: { event: string; data: any } | null;
  done: Promise<void>;
  problem: string | null;
}

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, milliseconds)));
/** A bound raced against work: its timer does not keep the process alive once the work won. */
const atMost = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds).unref());

export async function takeoverFleet(options: TakeoverFleetOptions): Promise<TakeoverFleetResult> {
  const log = options.log ?? (() => undefined);
  const staleMs = options.staleMs ?? defaultStaleMs;
  const heartbeatMs = options.heartbeatMs ?? defaultHeartbeatMs;
  const tokenDelayMs = options.tokenDelayMs ?? 70;
  const key = generateApiKey();
  const fake = await startFakeOpenAiServer();
  const counter = await startSideEffectCounter({ effectDelayMs: 300 });
  const receiver = await startFakeWebhookReceiver();
  scriptTakeoverFleet(fake, counter.origin, tokenDelayMs);
  const pair = await startInstancePair({
    postgresUrl: options.postgresUrl,
    redisUrl: options.redisUrl,
    ...(options.script !== undefined ? { script: options.script } : {}),
    environment: {
      AGENTD_BOOTSTRAP_KEY: key,
      AGENTD_RATE_LIMITS: 'off',
      AGENTD_DATABASE_POOL_SIZE: '4',
      AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
      AGENTD_TASK_MIN_INTERVAL_SECONDS: String(options.taskEverySeconds),
      AGENTD_WEBHOOK_RETRY_BASE_MS: '500',
      AGENTD_SHUTDOWN_TIMEOUT_MS: '2000',
      ...(options.staleMs !== undefined ? { AGENTD_RUN_STALE_MS: String(staleMs) } : {}),
      ...(options.heartbeatMs !== undefined ? { AGENTD_RUN_HEARTBEAT_MS: String(heartbeatMs) } : {}),
    },
  });
  const losses: string[] = [];
  const call = (server: ServerProcess, method: string, url: string, body?: unknown) =>
    callJson(server.url, key, method, url, body);
  /** Instances that take new work: up, and not about to be killed. */
  const doomed = new Set<number>();
  const available = () => ([0, 1] as const).filter((index) => pair.instances[index] !== null && !doomed.has(index));
  /** Set-up and checks go to an instance that is up, again on the other one when a kill cut the call. */
  const steady = async (method: string, url: string, body?: unknown): Promise<JsonAnswer> => {
    for (let attempt = 0; ; attempt += 1) {
      const index = available()[attempt % Math.max(1, available().length)];
      const server = index === undefined ? null : pair.instances[index];
      try {
        if (server === null || server === undefined) throw new Error('no instance up');
        return await call(server, method, url, body);
      } catch (error) {
        if (attempt >= 20) throw error;
        await pause(500);
      }
    }
  };
  const created = async (what: string, answer: Promise<JsonAnswer>) => {
    const { status, body } = await answer;
    if (status !== 201) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
    return body.id as string;
  };
  const model = { provider: 'openai-compatible', name: 'test-model' };
  let kills = 0;
  const restartMs: number[] = [];
  try {
    await created(
      'webhook',
      steady('POST', '/v1/webhooks', { url: receiver.url, events: ['task.completed', 'task.failed'] }),
    );
    const plainAgents: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      plainAgents.push(await created('agent', steady('POST', '/v1/agents', { name: `Plain ${index}`, model })));
    }
    const toolAgents: string[] = [];
    for (let index = 0; index < 2; index += 1) {
      const body = { name: `Poster ${index}`, model, plugins: [{ name: 'http' }] };
      toolAgents.push(await created('tool agent', steady('POST', '/v1/agents', body)));
    }
    const taskIds = new Map<string, { taskId: string; agentId: string }>();
    // Due times fall at their task's creation plus whole intervals: kills are timed from here (see `chaos`).
    const firstTaskAt = Date.now();
    for (let index = 0; index < options.tasks; index += 1) {
      // Five tasks an agent: an agent answers ten at once, and the tasks of one beat fall due together.
      if (index % 5 === 0)
        plainAgents.push(await created('agent', steady('POST', '/v1/agents', { name: `Clock ${index / 5}`, model })));
      const agentId = plainAgents.at(-1) as string;
      const marker = `task-${index}`;
      const taskId = await created(
        'task',
        steady('POST', `/v1/agents/${agentId}/tasks`, {
          name: `Task ${index}`,
          instructions: markedText(marker, 'Report the state of the harbour.'),
          schedule: { everySeconds: options.taskEverySeconds },
          output: { type: index % 2 === 0 ? 'webhook' : 'none' },
        }),
      );
      taskIds.set(marker, { taskId, agentId });
    }
    const replyAgents = plainAgents.slice(0, 4);

    const startedAt = Date.now();
    const deadline = startedAt + options.durationMs;
    const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
    log(
      `two instances up; ${options.durationMs / 1000} s of load, a kill every ${options.killEveryMs / 1000} s; ` +
        `stale ${staleMs} ms, heartbeat ${heartbeatMs} ms`,
    );

    /** Starts a background run on `index` (or any instance up): its run, or null when no answer said 202. */
    const unacknowledged: string[] = [];
    const startRun = async (marker: string, agentId: string, on?: 0 | 1): Promise<Started | null> => {
      const index = on ?? available()[Math.floor(Math.random() * available().length)];
      const server = index === undefined ? null : pair.instances[index];
      if (server === null || server === undefined) {
        unacknowledged.push(`${marker}: no instance up`);
        return null;
      }
      try {
        const answer = await call(server, 'POST', `/v1/agents/${agentId}/messages`, {
          text: markedText(marker),
          background: true,
        });
        if (answer.status === 202) return { marker, agentId, runId: answer.body.id as string };
        unacknowledged.push(`${marker}: ${answer.status} ${JSON.stringify(answer.body)}`);
      } catch (error) {
        unacknowledged.push(`${marker}: ${(error as Error).message}`);
      }
      return null;
    };

    const background: Started[] = [];
    const backgroundLoad = (async () => {
      const spacing = Math.max(1, (options.durationMs - 5_000) / options.backgroundRuns);
      const going: Promise<void>[] = [];
      for (let index = 0; index < options.backgroundRuns; index += 1) {
        await pause(startedAt + index * spacing - Date.now());
        const tool = index % 4 === 3;
        const marker = tool ? `tool-bg-${index}` : `bg-${index}`;
        const agentId = tool
          ? (toolAgents[index % toolAgents.length] as string)
          : (replyAgents[index % replyAgents.length] as string);
        going.push(
          startRun(marker, agentId).then((run) => {
            if (run !== null) background.push(run);
          }),
        );
      }
      await Promise.all(going);
    })();

    const followed: Followed[] = [];
    const follow = (run: Started, on: ServerProcess): Followed => {
      const entry: Followed = {
        ...run,
        killedAt: null,
        resumedAt: null,
        shown: '',
        last: null,
        problem: null,
        sawDelta: Promise.resolve(false),
        done: Promise.resolve(),
      };
      let deltaSeen: (seen: boolean) => void = () => undefined;
      entry.sawDelta = new Promise((resolve) => (deltaSeen = resolve));
      const reading = new AbortController();
      // Past the takeover bound and a reply's time, a stream still open is reported as such.
      const limit = setTimeout(() => reading.abort(), options.killEveryMs + staleMs + 4 * heartbeatMs + 60_000);
      entry.done = (async () => {
        try {
          let response: Response | null = null;
          // The run's row may be committed a moment after the 202.
          for (let attempt = 0; attempt < 50; attempt += 1) {
            response = await fetch(`${on.url}/v1/agents/${run.agentId}/runs/${run.runId}/events`, {
              headers: { authorization: `Bearer ${key}` },
              signal: reading.signal,
            });
            if (response.status !== 404) break;
            await response.body?.cancel();
            await pause(100);
          }
          if (response === null || response.status !== 200) {
            entry.problem = `events on the other instance answered ${response?.status}`;
            return;
          }
          const reader = readEvents(response.body!);
          for (let event = await reader.next(); event !== null; event = await reader.next()) {
            entry.last = event;
            if (event.event === 'message.delta') {
              entry.shown += event.data.text as string;
              deltaSeen(true);
            } else if (event.event === 'run.resumed') {
              entry.shown = event.data.text as string;
              entry.resumedAt ??= Date.now();
            }
          }
        } catch (error) {
          entry.problem = `stream broke off: ${(error as Error).message}`;
        } finally {
          clearTimeout(limit);
          deltaSeen(false);
        }
      })();
      followed.push(entry);
      return entry;
    };

    const expectedKills = Math.max(1, Math.ceil(options.durationMs / options.killEveryMs) - 1);
    const streamsPerKill = Math.ceil(options.followedStreams / expectedKills);
    const restarts: Promise<void>[] = [];
    const cutToolRuns: Promise<void>[] = [];
    const killTimes: number[] = [];
    const chaos = (async () => {
      let victim: 0 | 1 = 0;
      // A kill comes a second or so after the tasks' due times of its beat (the interval divides the kill beat
      // in both versions), so that it cuts some of their runs too; followed runs start just before it.
      for (let at = firstTaskAt + options.killEveryMs; at < deadline; at += options.killEveryMs) {
        await pause(at + 300 - Date.now());
        await Promise.all(restarts);
        const survivor = pair.instances[victim === 0 ? 1 : 0] as ServerProcess;
        const dying = pair.instances[victim] as ServerProcess;
        doomed.add(victim);
        const batch: Followed[] = [];
        const count = Math.min(streamsPerKill, options.followedStreams - followed.length);
        const runs = await Promise.all(
          Array.from({ length: count }, (_, index) => {
            const number = followed.length + index;
            return startRun(`follow-${number}`, replyAgents[number % replyAgents.length] as string, victim);
          }),
        );
        for (const run of runs) if (run !== null) batch.push(follow(run, survivor));
        // Tool runs on the dying instance too, a few hundred ms apart, so that the kill finds one asking for its
        // calls, one inside the POST and one in its last step (not followed: their checks are the run's end and
        // the effects counted).
        const cutTools = Array.from({ length: 3 }, async (_, index) => {
          await pause(index * 400);
          const number = cutToolRuns.length + index;
          const run = await startRun(
            `tool-cut-${kills}-${index}`,
            toolAgents[number % toolAgents.length] as string,
            victim,
          );
          if (run !== null) background.push(run);
        });
        cutToolRuns.push(...cutTools);
        // Killed once each followed stream is streaming (its first delta on the other instance).
        await Promise.race([Promise.all(batch.map((entry) => entry.sawDelta)), atMost(10_000)]);
        await Promise.race([Promise.all(cutTools), atMost(2_000)]);
        const killedAt = Date.now();
        await pair.kill(victim);
        for (const entry of batch) entry.killedAt = killedAt;
        kills += 1;
        killTimes.push(killedAt);
        log(
          `${elapsed()}: killed instance ${victim} at ${new Date(killedAt).toISOString()} ` +
            `(${batch.length} followed streams on it)`,
        );
        const restarting = victim;
        restarts.push(
          pair.restart(restarting).then(() => {
            restartMs.push(Date.now() - killedAt);
            doomed.delete(restarting);
            log(`${elapsed()}: instance ${restarting} back after ${Date.now() - killedAt} ms`);
          }),
        );
        victim = victim === 0 ? 1 : 0;
      }
    })();

    await Promise.all([backgroundLoad, chaos, pause(deadline - Date.now())]);
    await Promise.all(restarts);
    const loadEndedAt = Date.now();
    log(`${elapsed()}: load ended; ${kills} kills`);

    for (const { taskId, agentId } of taskIds.values()) {
      const answer = await steady('PATCH', `/v1/agents/${agentId}/tasks/${taskId}`, { enabled: false });
      if (answer.status !== 200) losses.push(`disabling task ${taskId}: ${answer.status}`);
    }

    // Every run ends within the takeover bound (stale time plus a heartbeat or two) and a reply's time.
    const settleMs = staleMs + 4 * heartbeatMs + 30_000;
    const unfinished = () => pair.query("select id, status from runs where status in ('queued', 'running')");
    const settled = await waitFor(async () => (await unfinished()).length === 0, settleMs, 250);
    if (settled === null) {
      for (const run of await unfinished())
        losses.push(`run ${run.id} still ${run.status} ${settleMs} ms after the load`);
    }
    await Promise.race([Promise.all(followed.map((entry) => entry.done)), atMost(settleMs)]);
    log(`${elapsed()}: settled ${settled === null ? 'not ' : ''}within ${settleMs} ms of the load's end`);

    // Tasks: every due time from the first to the last completed (a takeover completes one whose run died).
    const taskTally = { tasks: taskIds.size, dueTimes: 0, completed: 0, takenOver: 0, webhookEvents: 0 };
    for (const [marker, { taskId }] of taskIds) {
      const rows = await pair.query(
        'select id, due_at, status, error, result, takeovers from runs where task_id = $1 order by due_at',
        [taskId],
      );
      const dueTimes = rows.map((row) => Date.parse(row.due_at));
      for (const row of rows) {
        taskTally.dueTimes += 1;
        if (row.takeovers > 0) taskTally.takenOver += 1;
        const text = row.result === null ? null : (JSON.parse(row.result).text as string);
        const replyKey = text?.split(' ')[0] ?? '';
        if (row.status !== 'completed') {
          losses.push(
            `task ${marker} due ${row.due_at}: run ${row.id} ${row.status} (takeovers ${row.takeovers}) ${row.error ?? ''}`,
          );
        } else if (!replyKey.startsWith(`${marker}@`) || text !== replyFor(replyKey)) {
          losses.push(`task ${marker} due ${row.due_at}: run ${row.id} completed with another reply: ${text}`);
        } else taskTally.completed += 1;
      }
      if (dueTimes.length === 0) {
        losses.push(`task ${marker} never ran`);
        continue;
      }
      const seen = new Set(dueTimes);
      for (
        let due = dueTimes[0] as number;
        due <= (dueTimes.at(-1) as number);
        due += options.taskEverySeconds * 1000
      ) {
        if (!seen.has(due)) losses.push(`task ${marker} due ${new Date(due).toISOString()} has no run`);
      }
      if ((dueTimes.at(-1) as number) < loadEndedAt - options.taskEverySeconds * 1000 - 15_000) {
        losses.push(`task ${marker} stopped running at ${new Date(dueTimes.at(-1) as number).toISOString()}`);
      }
    }

    // Reported, not checked here (the webhook tests do): the deliveries of the tasks whose output is `webhook`.
    taskTally.webhookEvents = new Set(receiver.received.map((request) => request.headers['webhook-id'])).size;

    // Background runs and followed streams: completed, with the whole reply the fake sent.
    const everyRun = [...background, ...followed];
    const rows = new Map(
      (
        await pair.query('select id, status, error, result, takeovers from runs where id = any($1)', [
          everyRun.map((run) => run.runId),
        ])
      ).map((row) => [row.id as string, row]),
    );
    const backgroundTally = {
      started: options.backgroundRuns + cutToolRuns.length,
      acknowledged: background.length,
      completed: 0,
      takenOver: 0,
      unacknowledged: unacknowledged.length,
    };
    for (const run of background) {
      const row = rows.get(run.runId);
      if (row?.takeovers > 0) backgroundTally.takenOver += 1;
      const text = row?.result ? (JSON.parse(row.result).text as string) : null;
      if (row?.status !== 'completed') {
        losses.push(
          `background run ${run.runId} (${run.marker}): ${row?.status} (takeovers ${row?.takeovers}) ${row?.error ?? ''}`,
        );
      } else if (text !== replyFor(run.marker)) {
        losses.push(`background run ${run.runId} (${run.marker}) completed with another reply: ${text}`);
      } else backgroundTally.completed += 1;
    }
    for (const problem of unacknowledged) log(`  background run not acknowledged: ${problem}`);

    const streamTally = { followed: followed.length, completed: 0, resumedSeen: 0, takeoverMs: [] as number[] };
    for (const entry of followed) {
      const expected = replyFor(entry.marker);
      if (entry.resumedAt !== null) {
        streamTally.resumedSeen += 1;
        if (entry.killedAt !== null) streamTally.takeoverMs.push(entry.resumedAt - entry.killedAt);
      }
      const row = rows.get(entry.runId);
      const ending = entry.last?.event;
      if (ending !== 'message.completed' || entry.last?.data.text !== expected || entry.shown !== expected) {
        losses.push(
          `followed stream ${entry.runId} (${entry.marker}): last event ${ending} ` +
            `(${JSON.stringify(entry.last?.data ?? null).slice(0, 300)}), shown ${JSON.stringify(entry.shown.slice(0, 80))}, ` +
            `run ${row?.status} takeovers ${row?.takeovers}${entry.problem ? `, ${entry.problem}` : ''}`,
        );
      } else streamTally.completed += 1;
    }
    if (followed.length < options.followedStreams) {
      losses.push(`only ${followed.length} of ${options.followedStreams} followed streams were started`);
    }

    // Model steps: a step the fake answered whole is not asked again once the journal holds it.
    const runOfKey = async (key: string): Promise<string | null> => {
      const [marker, dueAt] = key.split('@') as [string, string | undefined];
      if (dueAt === undefined) return everyRun.find((run) => run.marker === marker)?.runId ?? null;
      const task = taskIds.get(marker);
      if (task === undefined) return null;
      const found = await pair.query('select id, due_at from runs where task_id = $1', [task.taskId]);
      return found.find((row) => Date.parse(row.due_at) === Date.parse(dueAt))?.id ?? null;
    };
    const repeated = repeatedAsks(fake.requests);
    let repeatedAfterJournal = 0;
    for (const ask of repeated) {
      const runId = await runOfKey(ask.key);
      const steps =
        runId === null
          ? []
          : await pair.query(
              "select seq, created_at from run_steps where run_id = $1 and kind = 'model' order by seq",
              [runId],
            );
      // The step asked again is the run's (tool rounds before it + 1)th model step: one round of calls at most here.
      const stepIndex = ask.toolResults > 0 ? 1 : 0;
      const recordedBefore = steps.filter((step) => Date.parse(step.created_at) < ask.askedAgainAt).length;
      const killBefore = killTimes.filter((killedAt) => killedAt <= ask.askedAgainAt).at(-1);
      const detail =
        `step ${stepIndex} of ${ask.key} (run ${runId}) answered whole at ${new Date(ask.completedAt).toISOString()}, ` +
        `asked again at ${new Date(ask.askedAgainAt).toISOString()}; the last kill before came ` +
        `${killBefore === undefined ? 'never' : `${killBefore - ask.completedAt} ms after the whole answer`}; ` +
        `model steps journaled before: ${recordedBefore}`;
      if (recordedBefore > stepIndex) {
        repeatedAfterJournal += 1;
        losses.push(`model ${detail}`);
      } else log(`  asked again before the journal had it: ${detail}`);
    }

    // Calls with side effects: never twice.
    const toolRuns = background.filter((run) => run.marker.startsWith('tool-')).length;
    const toolRunsCut = background.filter((run) => run.marker.startsWith('tool-cut-')).length;
    for (const { marker, count } of counter.repeatedEffects()) losses.push(`side effect ${marker} made ${count} times`);
    const repeatedReads = [...counter.reads.values()].filter((count) => count > 1).length;

    const takenOverRuns = Number((await pair.query('select count(*) as n from runs where takeovers > 0'))[0].n);
    const takeoverFailures = pair.logs().filter((line) => line.includes('a run taken over failed'));
    for (const line of takeoverFailures) losses.push(`log: ${line.slice(0, 500)}`);
    return {
      kills,
      restartMs,
      tasks: taskTally,
      background: backgroundTally,
      streams: streamTally,
      tools: {
        runs: toolRuns,
        startedBeforeKill: toolRunsCut,
        effects: counter.effects.size,
        repeatedEffects: counter.repeatedEffects().length,
        reads: counter.reads.size,
        repeatedReads,
      },
      model: {
        requests: fake.requests.filter((request) => keyOf(request) !== null).length,
        completed: fake.requests.filter((request) => request.completed).length,
        repeatedKeys: repeated.length,
        repeatedAfterJournal,
      },
      takenOverRuns,
      takeoverFailures: takeoverFailures.length,
      losses,
    };
  } finally {
    await pair.close();
    await receiver.close();
    await counter.close();
    await fake.close();
  }
}

function spread(values: number[]): string {
  if (values.length === 0) return 'none';
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as number;
  return `min ${sorted[0]} ms, median ${median} ms, max ${sorted.at(-1)} ms`;
}

/** The one summary line of a run, with every number. */
export function takeoverSummary(result: TakeoverFleetResult): string {
  const { tasks, background, streams, tools, model } = result;
  return [
    `kills ${result.kills} (restarts ${spread(result.restartMs)})`,
    `task due times ${tasks.completed}/${tasks.dueTimes} completed over ${tasks.tasks} tasks (${tasks.takenOver} taken over; ${tasks.webhookEvents} task webhook events received)`,
    `background runs ${background.completed}/${background.acknowledged} completed (${background.started} started, ` +
      `${background.unacknowledged} unacknowledged, ${background.takenOver} taken over)`,
    `followed streams ${streams.completed}/${streams.followed} ended message.completed with the whole reply ` +
      `(${streams.resumedSeen} saw run.resumed; kill → run.resumed ${spread(streams.takeoverMs)})`,
    `tool runs ${tools.runs} (${tools.startedBeforeKill} started just before a kill): side effects ${tools.effects} markers, ${tools.repeatedEffects} repeated; ` +
      `reads ${tools.reads} markers, ${tools.repeatedReads} repeated`,
    `model requests ${model.requests} (${model.completed} answered whole), ${model.repeatedKeys} steps asked again ` +
      `after a whole answer, ${model.repeatedAfterJournal} of them after the journal had the step`,
    `runs taken over ${result.takenOverRuns}, takeovers failed ${result.takeoverFailures}`,
    `losses ${result.losses.length}`,
  ].join('; ');
}

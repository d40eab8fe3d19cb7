import { generateApiKey } from '../../src/security/api-key-secret.js';
import { AcknowledgedLedger } from '../durability/acknowledged-ledger.js';
import { AgentdClient, Unanswered } from '../durability/agentd-client.js';
import { runLoadClient, type LoadRound } from '../durability/load-client.js';
import { SeededRandom } from '../durability/seeded-random.js';
import { verifyAcknowledged } from '../durability/verify-after-restart.js';
import { startFakeTelegram } from '../helpers/fake-telegram-server.js';
import { startFakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';
import { waitFor } from '../helpers/wait.js';
import { checkDeliveries, type DeliveryCheck } from './delivery-checks.js';
import { startFleet } from './fleet.js';
import { streamOnce, type StreamTally } from './streams.js';

/**
 * The fleet run: three instances on one PostgreSQL and Redis behind a
 * round-robin proxy, a mixed load through the proxy for `durationMs`, and
 * kill -9 of a random instance every `killEveryMs` (started again at once).
 * Afterwards, from the outside: every acknowledged write is there, every
 * webhook event of a committed change was delivered (same webhook-id on
 * repeats, none of a change that did not commit), every Telegram message was
 * answered exactly once within the lease takeover bound, every task due time
 * ran exactly once, every stream ended or was resumed to its end, and no run,
 * delivery or document is left unfinished past its bound.
 */
export interface FleetRunOptions {
  durationMs: number;
  killEveryMs: number;
  seed: number;
  postgresUrl: string;
  redisUrl: string;
  /** Clients of the agents load (creates, patches, deletes, messages; default 4). */
  clients?: number;
  log?: (line: string) => void;
}

export interface FleetRunResult {
  seed: number;
  kills: number;
  acknowledgedWrites: number;
  checkedWrites: number;
  documents: number;
  streams: StreamTally;
  deliveries: DeliveryCheck;
  telegram: { sent: number; answered: number; duplicates: number; slowest: number; acrossKill: number };
  tasks: { dueTimes: number; completed: number; failedByKill: number };
  /** Everything that counts as a loss: empty when the fleet lost nothing. */
  losses: string[];
}

/** Bounds of the run's settings (documented in README: each is the setting's own bound). */
const settings = {
  platformLeaseMs: 3_000,
  runHeartbeatMs: 500,
  runStaleMs: 3_000,
  webhookTimeoutMs: 2_000,
  knowledgeLeaseMs: 3_000,
  taskIntervalSeconds: 2,
};
/**
 * Telegram: the lease moves within 1.2× its time to live (README); on top, the time the reply itself takes,
 * allowed 15 s on a machine the run shares with others (messages come one every 5 s: a bot answers one after
 * the other, and replies slower than the pace would queue behind each other).
 */
const telegramAnswerBoundMs = 1.2 * settings.platformLeaseMs + 15_000;
/** A run whose instance died ends within the stale time plus a heartbeat (docs/runs.md). */
const runEndBoundMs = settings.runStaleMs + settings.runHeartbeatMs;
/** A claim lapses after the delivery time-out plus 5 s (README, Webhooks), then the next poll takes it. */
const deliveryBoundMs = settings.webhookTimeoutMs + 5_000 + 2_000;

export async function fleetRun(options: FleetRunOptions): Promise<FleetRunResult> {
  const log = options.log ?? (() => undefined);
  const random = new SeededRandom(options.seed);
  const key = generateApiKey();
  const botToken = '777001:fleet-chaos-bot';
  const telegram = await startFakeTelegram();
  telegram.addBot(botToken, 'fleet_bot');
  const receiver = await startFakeWebhookReceiver();
  const fleet = await startFleet({
    size: 3,
    postgresUrl: options.postgresUrl,
    redisUrl: options.redisUrl,
    environment: {
      AGENTD_BOOTSTRAP_KEY: key,
      AGENTD_RATE_LIMITS: 'off',
      AGENTD_DATABASE_POOL_SIZE: '4',
      AGENTD_BUILTIN_WORD_DELAY_MS: '5',
      AGENTD_TELEGRAM_API_URL: telegram.apiRoot,
      AGENTD_PLATFORM_LEASE_MS: String(settings.platformLeaseMs),
      AGENTD_TASK_MIN_INTERVAL_SECONDS: String(settings.taskIntervalSeconds),
      AGENTD_RUN_HEARTBEAT_MS: String(settings.runHeartbeatMs),
      AGENTD_RUN_STALE_MS: String(settings.runStaleMs),
      AGENTD_WEBHOOK_TIMEOUT_MS: String(settings.webhookTimeoutMs),
      AGENTD_WEBHOOK_RETRY_BASE_MS: '500',
      AGENTD_WEBHOOK_POLL_MS: '250',
      AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
      AGENTD_KNOWLEDGE_LEASE_MS: String(settings.knowledgeLeaseMs),
      AGENTD_CONCURRENCY_LEASE_MS: '5000',
      AGENTD_SHUTDOWN_TIMEOUT_MS: '5000',
    },
  });
  const losses: string[] = [];
  const client = new AgentdClient(fleet.proxy.url, key);
  /** Calls of the run's own set-up and checks: retried when a kill cuts them (they are idempotent or reads). */
  const steady = async (method: string, path: string, body?: unknown) => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await client.request(method, path, body);
      } catch (error) {
        if (!(error instanceof Unanswered) || attempt === 5) throw error;
      }
    }
  };
  let kills = 0;
  const killTimes: number[] = [];
  try {
    const webhook = await steady('POST', '/v1/webhooks', {
      url: receiver.url,
      events: ['agent.created', 'agent.updated', 'agent.deleted', 'message.completed'],
    });
    if (webhook.status !== 201) throw new Error(`webhook: ${webhook.status} ${JSON.stringify(webhook.body)}`);
    const bot = await steady('POST', '/v1/agents', {
      name: 'Fleet bot',
      platforms: [{ type: 'telegram', secrets: { botToken } }],
    });
    const clock = await steady('POST', '/v1/agents', { name: 'Fleet clock' });
    const streamer = await steady('POST', '/v1/agents', { name: 'Fleet streamer', bio: ['Talks at length.'] });
    const base = await steady('POST', '/v1/knowledge-bases', { name: 'Fleet notes' });
    for (const answer of [bot, clock, streamer, base]) {
      if (answer.status !== 201) throw new Error(`set-up: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    const taskIds: string[] = [];
    for (const name of ['Tick', 'Tock']) {
      const task = await steady('POST', `/v1/agents/${clock.body.id}/tasks`, {
        name,
        instructions: `Say ${name}.`,
        schedule: { everySeconds: settings.taskIntervalSeconds },
      });
      if (task.status !== 201) throw new Error(`task: ${task.status} ${JSON.stringify(task.body)}`);
      taskIds.push(task.body.id);
    }
    await waitFor(() => telegram.isPolling(botToken), 30_000, 50);

    const startedAt = Date.now();
    const deadline = startedAt + options.durationMs;
    const running = () => Date.now() < deadline;
    log(`fleet of 3 up; load for ${options.durationMs / 1000} s, a kill every ${options.killEveryMs / 1000} s`);

    // The agents load of the single-instance kill test, through the proxy: a request cut by a kill leaves its
    // agent pending (what it did is decided by the final check), and the client goes on.
    const ledger = new AcknowledgedLedger();
    const owners = new Map<string, number>();
    const unexpected: string[] = [];
    let number = 0;
    const clientCount = options.clients ?? 4;
    class StoppedLoad extends Error {}
    const loadClient = new (class extends AgentdClient {
      override async request(...args: Parameters<AgentdClient['request']>) {
        if (!running()) throw new StoppedLoad();
        return super.request(...args);
      }
      override async streamedMessage(...args: Parameters<AgentdClient['streamedMessage']>) {
        if (!running()) throw new StoppedLoad();
        return super.streamedMessage(...args);
      }
    })(fleet.proxy.url, key);
    const round: LoadRound = {
      client: loadClient,
      ledger,
      owners,
      unexpected,
      nextNumber: () => (number += 1),
      acknowledged: () => undefined,
    };
    const agentsLoad = Array.from({ length: clientCount }, async (_, index) => {
      const clientRandom = new SeededRandom(random.between(0, 2 ** 31));
      while (running()) {
        try {
          await runLoadClient(round, index, clientRandom);
        } catch (error) {
          if (!(error instanceof StoppedLoad)) throw error;
        }
      }
    });

    const streams: StreamTally = { ended: 0, resumed: 0, refused: 0, unresolved: [] };
    const streamsLoad = Array.from({ length: 2 }, async (_, index) => {
      for (let count = 0; running(); count += 1) {
        const { outcome, detail } = await streamOnce(
          fleet.proxy.url,
          key,
          streamer.body.id,
          `Tell me about the harbour, part ${index}-${count}.`,
          count % 2 === 0,
          runEndBoundMs + 10_000,
        );
        if (outcome === 'unresolved') streams.unresolved.push(detail ?? '');
        else streams[outcome] += 1;
      }
    });

    const documents: string[] = [];
    const knowledgeLoad = (async () => {
      for (let count = 0; running(); count += 1) {
        try {
          const answer = await client.request('POST', `/v1/knowledge-bases/${base.body.id}/documents`, {
            title: `Note ${count}`,
            content: `# Note ${count}\n\nBerth ${count} costs ${count % 40} euros a night.`,
          });
          if (answer.status === 202 || answer.status === 201) documents.push(answer.body.id);
          else unexpected.push(`document: ${answer.status} ${JSON.stringify(answer.body)}`);
        } catch (error) {
          if (!(error instanceof Unanswered)) throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();

    const injected: Array<{ chatId: number; updateId: number; at: number }> = [];
    const telegramLoad = (async () => {
      for (let count = 0; running(); count += 1) {
        const chatId = 5_000_000 + count;
        const updateId = telegram.injectMessage(botToken, { chatId, fromId: chatId, text: `Hello number ${count}` });
        injected.push({ chatId, updateId, at: Date.now() });
        await new Promise((resolve) => setTimeout(resolve, 5_000));
      }
    })();

    // Kills on a fixed beat, whatever a restart takes (a cold start on a busy machine can take longer than the
    // beat): the victim is drawn among the instances that are up, and one always stays up.
    const restarts: Array<Promise<void>> = [];
    const chaos = (async () => {
      for (let at = startedAt + options.killEveryMs; at < deadline; at += options.killEveryMs) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
        const up = fleet.instances.flatMap((instance, index) => (instance === null ? [] : [index]));
        if (up.length < 2) continue;
        const victim = random.pick(up);
        killTimes.push(Date.now());
        await fleet.kill(victim);
        kills += 1;
        log(`${((Date.now() - startedAt) / 1000).toFixed(0)} s: killed instance ${victim}`);
        restarts.push(fleet.restart(victim));
      }
    })();

    await Promise.all([...agentsLoad, ...streamsLoad, knowledgeLoad, telegramLoad, chaos]);
    const loadEndedAt = Date.now();
    await Promise.all(restarts);
    log(
      `load ended after ${((loadEndedAt - startedAt) / 1000).toFixed(0)} s; ${kills} kills; ` +
        `proxy: ${JSON.stringify(fleet.proxy.stats)}`,
    );
    losses.push(...unexpected.map((problem) => `unexpected answer: ${problem}`));

    // Tasks stop producing due times from here on; what was claimed must end.
    for (const taskId of taskIds) {
      const answer = await steady('PATCH', `/v1/agents/${clock.body.id}/tasks/${taskId}`, { enabled: false });
      if (answer.status !== 200) losses.push(`disabling task ${taskId}: ${answer.status}`);
    }

    // No run stays running or queued past its bound: a run whose instance was killed is taken over within the
    // stale bound (twice, should the instance that took it be killed too), may wait for an agent slot the killed
    // instance held until its Redis lease runs out (30 s), then ends (docs/runs.md, "When an instance stops").
    const unfinishedRuns = async () =>
      await fleet.query("select id, status from runs where status in ('queued', 'running')");
    const runsSettled = await waitFor(
      async () => (await unfinishedRuns()).length === 0,
      2 * runEndBoundMs + 30_000 + 10_000,
      200,
    );
    if (runsSettled === null) {
      for (const run of await unfinishedRuns()) losses.push(`run ${run.id} still ${run.status}`);
    }

    // Acknowledged writes, as the single-instance kill test checks them.
    const verification = await verifyAcknowledged(client, ledger, owners, () => 0);
    losses.push(...verification.lost.map((problem) => `acknowledged write: ${problem}`));

    // Every acknowledged document is there and indexed (a killed instance's claim lapses after its lease).
    const documentsReady = async () => {
      const pending: string[] = [];
      for (const id of documents) {
        const answer = await steady('GET', `/v1/knowledge-bases/${base.body.id}/documents/${id}`);
        if (answer.status !== 200 || answer.body.status !== 'ready')
          pending.push(`${id}: ${answer.status} ${answer.body?.status}`);
      }
      return pending;
    };
    let unreadyDocuments: string[] = [];
    await waitFor(
      async () => (unreadyDocuments = await documentsReady()).length === 0,
      settings.knowledgeLeaseMs * 3 + 10_000,
      500,
    );
    losses.push(...unreadyDocuments.map((problem) => `document ${problem}`));

    // Telegram: every message answered exactly once, within the takeover bound.
    const lastInjected = injected.at(-1)?.at ?? loadEndedAt;
    await waitFor(
      () => injected.every(({ chatId }) => telegram.sentTo(botToken, chatId).length > 0),
      Math.max(0, lastInjected + telegramAnswerBoundMs - Date.now()) + 2_000,
      100,
    );
    const sendCalls = telegram.callsOf('sendMessage', botToken);
    const telegramTally = { sent: injected.length, answered: 0, duplicates: 0, slowest: 0, acrossKill: 0 };
    const typingCalls = telegram.callsOf('sendChatAction', botToken);
    for (const { chatId, at } of injected) {
      const answers = sendCalls.filter((call) => call.body.chat_id === chatId);
      if (answers.length === 0) {
        // README, Telegram: an update taken by a killed instance is answered by the one that takes the bot over.
        losses.push(`telegram message to chat ${chatId} was never answered`);
        continue;
      }
      // Taken (the typing indicator went out) before a kill and answered after it: the takeover answered it.
      const firstTyping = typingCalls.find((call) => call.body.chat_id === chatId)?.at ?? answers[0]!.at;
      if (killTimes.some((killedAt) => killedAt > firstTyping && killedAt < answers[0]!.at)) {
        telegramTally.acrossKill += 1;
      }
      telegramTally.answered += 1;
      if (answers.length > 1) {
        telegramTally.duplicates += answers.length - 1;
        losses.push(`telegram message to chat ${chatId} was answered ${answers.length} times`);
      }
      const tookMs = answers[0]!.at - at;
      telegramTally.slowest = Math.max(telegramTally.slowest, tookMs);
      if (tookMs > telegramAnswerBoundMs) {
        losses.push(`telegram message to chat ${chatId} answered after ${tookMs} ms (bound ${telegramAnswerBoundMs})`);
      }
    }

    // Tasks: every due time between the first and the last ran once (a run a kill cut off is taken over by the
    // other instance and completes; one taken over too many times ends failed, once).
    const taskTally = { dueTimes: 0, completed: 0, failedByKill: 0 };
    for (const taskId of taskIds) {
      const rows = await fleet.query('select due_at, status, error from runs where task_id = $1 order by due_at', [
        taskId,
      ]);
      const seen = new Map<number, number>();
      for (const run of rows) {
        const due = Date.parse(run.due_at);
        seen.set(due, (seen.get(due) ?? 0) + 1);
        if (run.status === 'completed') taskTally.completed += 1;
        else if (run.status === 'failed' && /stopped before it ended/.test(String(run.error))) {
          taskTally.failedByKill += 1;
        } else losses.push(`task ${taskId} due ${run.due_at}: ${run.status} ${run.error ?? ''}`);
      }
      for (const [due, count] of seen) {
        if (count > 1) losses.push(`task ${taskId} due ${new Date(due).toISOString()} ran ${count} times`);
      }
      const dueTimes = [...seen.keys()];
      if (dueTimes.length === 0) {
        losses.push(`task ${taskId} never ran`);
        continue;
      }
      const first = Math.min(...dueTimes);
      const last = Math.max(...dueTimes);
      for (let due = first; due <= last; due += settings.taskIntervalSeconds * 1000) {
        taskTally.dueTimes += 1;
        if (!seen.has(due)) losses.push(`task ${taskId} due ${new Date(due).toISOString()} never ran`);
      }
      if (last < loadEndedAt - 10_000) losses.push(`task ${taskId} stopped running at ${new Date(last).toISOString()}`);
    }

    // Webhooks: what committed was delivered, once per webhook-id payload, nothing of what did not commit.
    const deliveries = await checkDeliveries({
      client,
      steady,
      query: fleet.query,
      receiver,
      secret: webhook.body.secret,
      ledger,
      boundMs: deliveryBoundMs,
    });
    losses.push(...deliveries.problems);
    losses.push(...streams.unresolved.map((problem) => `stream: ${problem}`));

    return {
      seed: options.seed,
      kills,
      acknowledgedWrites: ledger.total,
      checkedWrites: verification.checked,
      documents: documents.length,
      streams,
      deliveries,
      telegram: telegramTally,
      tasks: taskTally,
      losses,
    };
  } finally {
    await fleet.close();
    await receiver.close();
    await telegram.close();
  }
}

/** The one summary line of a run. */
export function summaryLine(result: FleetRunResult): string {
  const { streams, deliveries, telegram, tasks } = result;
  return [
    `kills ${result.kills}`,
    `acknowledged writes ${result.acknowledgedWrites} (checked ${result.checkedWrites})`,
    `documents ${result.documents}`,
    `streams ${streams.ended} ended, ${streams.resumed} resumed, ${streams.refused} refused, ${streams.unresolved.length} unresolved`,
    `webhook events ${deliveries.expected} expected, ${deliveries.received} received (${deliveries.repeats} repeats)`,
    `telegram ${telegram.answered}/${telegram.sent} answered (${telegram.acrossKill} across a kill), ` +
      `${telegram.duplicates} duplicates, slowest ${telegram.slowest} ms`,
    `task due times ${tasks.dueTimes} (${tasks.completed} completed, ${tasks.failedByKill} ended by a kill)`,
    `losses ${result.losses.length}`,
  ].join('; ');
}

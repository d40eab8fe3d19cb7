import { setTimeout as delay } from 'node:timers/promises';
import { isoTime } from '../../clock.js';
import { buildPrompt } from '../../conversation/build-prompt.js';
import { withImages, withUnavailableTools, type PromptMessage } from '../../conversation/prompt.js';
import { AppError, problemBody, validationError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ConcurrencyLease } from '../../limits/concurrency-limiter.js';
import { AgentToolsets, type Toolbox } from '../../plugins/toolsets.js';
import type { ProviderName } from '../../providers/catalog.js';
import { promptCacheKeyOf } from '../../providers/prompt-cache.js';
import { ProviderError } from '../../providers/provider-error.js';
import { messageLimits, type SendMessageInput } from '../../schemas/messages.js';
import type { RunTrigger } from '../../schemas/runs.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { ensureAnswering } from './agent-availability.js';
import { conversationKey } from './conversation.js';
import { failureTypeOf, recordMessageMetrics } from './message-metrics.js';
import { discardKeptImages, keepImages, storeExchange, type Exchange, type MessageOrigin } from './exchange-store.js';
import { appErrorForFailure } from './provider-failure.js';
import { Reply, type ToolLoop } from './reply.js';
import { promptImageOf, readMessageAttachments, type MessageAttachmentInput } from './message-attachments.js';
import type { RunLog, WireEvent } from '../runs/run-log.js';
import { admitSpend, type SpendReservation } from '../spend/admit-spend.js';
import { estimateTokens } from '../../conversation/tokens.js';
import { defaultOutputReserve } from '../../providers/model-limits.js';

export interface ModelSettingsOverride {
  temperature?: number;
  maxOutputTokens?: number;
}

/**
 * A reply answered in isolation: an eval's case (src/services/evals/, docs/evals.md). It answers with `agent` (a
 * version's configuration) in place of the stored one, whatever the agent's status, with the tools `toolbox` gives
 * in place of the agent's own; its exchange starts no memory work and no message webhooks (`Exchange.isolated`).
 */
export interface ReplyIsolation {
  agent: AgentRecord;
  toolbox(agent: AgentRecord): Promise<Toolbox | null>;
}

/** Tool rounds per reply when the agent's model settings name none. */
const defaultMaxSteps = 5;
/** The most tool calls one reply may make, over all its rounds (ids for their turns are drawn in advance). */
export const maxToolCallsPerReply = 32;

async function acquireAgentSlot(ctx: ServiceContext, agent: AgentRecord): Promise<ConcurrencyLease | null> {
  const max = ctx.deps.messageConcurrency;
  if (max === null) return null;
  const lease = await ctx.deps.concurrencyLimiter.acquire(`${ctx.actor.accountId}:${agent.id}`, max);
  if (lease === null) {
    ctx.deps.agentMetrics.concurrencyRejected({ accountId: ctx.actor.accountId, agentId: agent.id });
    throw new AppError(
      'concurrency_limited',
      `Agent ${agent.id} already has ${max} message requests in flight; retry when one has finished.`,
      {
        headers: { 'retry-after': '1' },
      },
    );
  }
  return lease;
}

/**
 * A streamed reply also takes one of its account's open-stream slots: the
 * per-agent bound alone lets an account with many agents hold any number of
 * connections and model calls open. Held from before the model is called
 * until the stream ends, however it ends.
 */
async function acquireStreamSlot(ctx: ServiceContext, agent: AgentRecord): Promise<ConcurrencyLease> {
  const max = ctx.deps.openStreamsPerAccount;
  const lease = await ctx.deps.concurrencyLimiter.acquire(`open-streams:${ctx.actor.accountId}`, max);
  if (lease === null) {
    ctx.deps.agentMetrics.concurrencyRejected({ accountId: ctx.actor.accountId, agentId: agent.id });
    throw new AppError(
      'concurrency_limited',
      `This account already has ${max} streamed replies open, the most it may have at once; retry when one has ended.`,
      { headers: { 'retry-after': '1' } },
    );
  }
  return lease;
}

/** The slots a message holds, released together. */
async function acquireSlots(ctx: ServiceContext, agent: AgentRecord, streamed: boolean): Promise<ConcurrencyLease> {
  const agentSlot = await acquireAgentSlot(ctx, agent);
  let streamSlot: ConcurrencyLease | null = null;
  if (streamed) {
    try {
      streamSlot = await acquireStreamSlot(ctx, agent);
    } catch (error) {
      await agentSlot?.release();
      throw error;
    }
  }
  return {
    release: async () => {
      await Promise.all([agentSlot?.release(), streamSlot?.release()]);
    },
  };
}

/**
 * The spend limits' admission (src/services/spend/), once the slots are held:
 * refused, the slots go back; admitted, the reservation is settled with the
 * reply's usage when the slots are released, however the reply ends.
 */
async function admitWithSpend(
  ctx: ServiceContext,
  agent: AgentRecord,
  slots: ConcurrencyLease,
  estimate: { inputTokens: number; outputTokens: number },
): Promise<{ lease: ConcurrencyLease; spend: SpendReservation | null }> {
  let spend: SpendReservation | null;
  try {
    spend = await admitSpend(ctx, agent, estimate);
  } catch (error) {
    await slots.release();
    throw error;
  }
  if (spend === null) return { lease: slots, spend };
  const reservation = spend;
  return {
    lease: {
      release: async () => {
        await Promise.all([slots.release(), reservation.settle()]);
      },
    },
    spend,
  };
}

/** How often a run waiting for one of its agent's slots tries again; every tenth try it checks it was not cancelled. */
const slotPollMs = 200;

/**
 * A run produced by the service (a background message, a task) waits for one
 * of its agent's in-flight slots instead of being refused: a full agent makes
 * it wait, not vanish. It gives up only when the run was cancelled meanwhile.
 */
export async function waitForAgentSlot(
  ctx: ServiceContext,
  agent: AgentRecord,
  runId: string,
): Promise<ConcurrencyLease> {
  const max = ctx.deps.messageConcurrency;
  if (max === null) return { release: async () => {} };
  for (let attempt = 1; ; attempt += 1) {
    const lease = await ctx.deps.concurrencyLimiter.acquire(`${ctx.actor.accountId}:${agent.id}`, max);
    if (lease !== null) return lease;
    if (attempt % 10 === 0) {
      const row = await ctx.deps.repositories.runs.findById(runId);
      if (row?.status !== 'queued') throw cancelledBeforeStart(runId);
    }
    await delay(slotPollMs);
  }
}

/** Resolves once this turn of the event loop is done (its I/O, the writes it queued, included). */
const afterThisTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A provider slower than this to its first part does not keep a new run out of the lists any longer. */
const runRowDelayMs = 50;

/**
 * When a new run's row is written where writes hold the event loop (SQLite, see `openRun`): at the end of
 * the turn in which `open` is called (the reply's first part is in and its first words are written), or
 * `runRowDelayMs` after the message began if the provider is slower, whichever comes first.
 */
function runRowGate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const timer = setTimeout(open, runRowDelayMs);
  timer.unref();
  return {
    opened: opened.then(() => {
      clearTimeout(timer);
      return afterThisTurn();
    }),
    open,
  };
}

const cancelledBeforeStart = (runId: string) => new AppError('conflict', `Run ${runId} was cancelled before it began.`);

/**
 * The run this reply is: a queued one (a background message, a task's due
 * time) becomes running on this instance; otherwise a new running one is
 * written, without waiting for the write (its events wait for it instead),
 * under the `callKey` of the door's call it answers, if any: at once, or
 * when `rowGate` opens (SQLite, see `runRowGate`).
 */
export async function openRun(
  ctx: ServiceContext,
  exchange: Exchange,
  trigger: RunTrigger,
  queued: boolean,
  callKey: string | null = null,
  rowGate?: Promise<void>,
  /** A run taken over from a stopped instance: the last event it stored. */
  afterSeq = 0,
): Promise<RunLog> {
  const { repositories, runs } = ctx.deps;
  const run = { id: exchange.runId, accountId: ctx.actor.accountId, agentId: exchange.agentId };
  const startedAt = isoTime(exchange.startedAt);
  if (queued) {
    const fields = {
      instanceId: runs.instanceId,
      messageId: exchange.replyId,
      startedAt: isoTime(ctx.deps.clock.now()),
      agentVersion: exchange.agentVersion ?? null,
    };
    if (!(await repositories.runs.start(run.id, fields))) throw cancelledBeforeStart(run.id);
    return runs.begin(run, Promise.resolve(), afterSeq);
  }
  // On SQLite the write holds the event loop (the driver is synchronous), and before the model call it was time
  // every first word waited for, often its slowest share (p99 4-5 ms with 10 streams open, bench/README.md): the
  // caller gives a `rowGate` there. No request can name the run sooner: its id comes with the reply, and any
  // other request is read in a later turn of the event loop. PostgreSQL's write is I/O, made at once.
  const insert = () =>
    repositories.runs.insertRunning({
      id: run.id,
      account_id: run.accountId,
      agent_id: run.agentId,
      trigger,
      task_id: null,
      due_at: null,
      status: 'running',
      background: 0,
      user_id: exchange.userId,
      room_id: exchange.roomId,
      input: exchange.text,
      message_id: exchange.replyId,
      instance_id: runs.instanceId,
      event_count: 0,
      created_at: startedAt,
      started_at: startedAt,
      call_key: callKey,
      agent_version: exchange.agentVersion ?? null,
    });
  return runs.begin(run, rowGate === undefined ? insert() : rowGate.then(insert));
}

export function modelKeyOf(ctx: ServiceContext, agent: AgentRecord): string | undefined {
  const sealed = agent.profile.model.apiKey;
  return sealed ? ctx.deps.secretBox.open(sealed.sealed, agent.id) : undefined;
}

/** The `context` of a message is bounded as JSON, which its schema cannot say. */
/** A message as the service takes it: the API's body, whose images may also be uploaded bytes (multipart). */
export type SendMessageRequest = Omit<SendMessageInput, 'attachments'> & {
  attachments?: readonly MessageAttachmentInput[];
};

export function checkContextSize(input: Pick<SendMessageInput, 'context'>): void {
  if (
    input.context !== undefined &&
    Buffer.byteLength(JSON.stringify(input.context), 'utf8') > messageLimits.contextBytes
  ) {
    throw validationError('/body/context', 'must be at most 16 KiB as JSON');
  }
}

/**
 * Sends a message to an agent and resolves when its answer has begun (the
 * model's first part arrived), so that everything that can go wrong before
 * then is an ordinary error response: 404, 429 `concurrency_limited`, 503.
 * `signal` is the client's: when it aborts, so does the model call.
 */
export async function sendMessage({
  ctx,
  agentId,
  input,
  signal,
  settings,
  trigger = 'message',
  queuedRunId,
  origin,
  callKey,
  takenOver,
  isolation,
}: {
  ctx: ServiceContext;
  agentId: string;
  input: SendMessageRequest;
  signal: AbortSignal;
  /** Model settings for this reply only, over the agent's own (the OpenAI-compatible door's `max_tokens`). */
  settings?: ModelSettingsOverride;
  /** Who started the run this reply is (default `message`). */
  trigger?: RunTrigger;
  /**
   * A queued run this reply produces (a background message, a task's due
   * time): it waits for an agent slot rather than being refused, and becomes
   * running here.
   */
  queuedRunId?: string;
  /** The platform the message came from: a reply that pauses for approvals goes on there. */
  origin?: MessageOrigin;
  /** The MCP call this reply answers (src/services/mcp/mcp-calls.ts): a cancellation on any instance finds its run. */
  callKey?: string | null;
  /** A queued run taken over from a stopped instance, beginning again: the events it stored, and what its readers are told. */
  takenOver?: { afterSeq: number; resumed: WireEvent };
  /** An eval's case: see `ReplyIsolation`. */
  isolation?: ReplyIsolation;
}): Promise<Reply> {
  requireScope(ctx, 'messages:send');
  const startedTick = performance.now();
  const startedAt = ctx.deps.clock.now();
  checkContextSize(input);
  const agent = isolation?.agent ?? (await findOwnAgent(ctx, agentId));
  if (isolation === undefined) await ensureAnswering(ctx, agent);
  // Before any slot is taken or anything stored: a refused image leaves no trace.
  const images = await readMessageAttachments(ctx, input.attachments, signal);
  const runId = queuedRunId ?? newId('run');
  const slots =
    queuedRunId === undefined
      ? await acquireSlots(ctx, agent, input.stream === true)
      : await waitForAgentSlot(ctx, agent, queuedRunId);
  const spendOutputTokens = settings?.maxOutputTokens ?? agent.profile.model.maxOutputTokens ?? defaultOutputReserve;
  const { lease, spend } = await admitWithSpend(ctx, agent, slots, {
    inputTokens: estimateTokens(input.text),
    outputTokens: spendOutputTokens,
  });

  const userId = input.userId ?? null;
  const roomId = input.roomId ?? null;
  const conversation = conversationKey(userId, roomId);
  const { provider, name, topP, maxSteps } = agent.profile.model;
  const temperature = settings?.temperature ?? agent.profile.model.temperature;
  const maxOutputTokens = settings?.maxOutputTokens ?? agent.profile.model.maxOutputTokens;
  const userTurnId = newId('message');
  // Ids drawn now, between the message's and the reply's, so that tool turns sort between them.
  const toolTurnIds = AgentToolsets.hasPlugins(agent)
    ? Array.from({ length: maxToolCallsPerReply }, () => newId('message'))
    : [];
  const exchange: Exchange = {
    agentId: agent.id,
    userId,
    roomId,
    conversation,
    userTurnId,
    toolTurnIds,
    replyId: newId('message'),
    text: input.text,
    model: { provider, name },
    startedAt,
    startedTick,
    streamed: input.stream === true,
    runId,
    agentVersion: agent.version,
    trigger,
    origin: origin ?? null,
    ...(isolation !== undefined ? { isolated: true } : {}),
    ...(images.length > 0 ? { attachments: images } : {}),
    ...(spend !== null ? { spend } : {}),
  };
  keepImages(ctx, exchange);
  const noUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let counted = false;
  let run: RunLog | null = null;
  // Only a new run's row on SQLite waits (see `openRun`): a queued run's exists, and PostgreSQL writes at once.
  const rowGate = queuedRunId === undefined && ctx.deps.repositories.writesBlock ? runRowGate() : null;
  /** The client left before the first word: the run is cancelled, not failed. */
  let leftEarly = false;
  try {
    run = await openRun(
      ctx,
      exchange,
      trigger,
      queuedRunId !== undefined,
      callKey ?? null,
      rowGate?.opened,
      takenOver?.afterSeq,
    );
    if (takenOver !== undefined) run.record(takenOver.resumed);
    // The run's own stop (a cancel, a shutdown) ends the model call and any tool just as the client's leaving does.
    signal = AbortSignal.any([signal, run.signal]);
    const [built, toolbox] = await Promise.all([
      buildPrompt(
        ctx.deps.repositories,
        agent,
        {
          text: input.text,
          userId,
          conversation,
          shared: roomId !== null,
          context: (input.context as Record<string, unknown> | undefined) ?? null,
        },
        ctx.deps.knowledge.retrieval,
        ctx.deps.recall,
      ),
      isolation !== undefined ? isolation.toolbox(agent) : ctx.deps.plugins.toolsets.toolboxFor(agent),
    ]);
    const withTools = toolbox?.unavailable.length ? withUnavailableTools(built, toolbox.unavailable) : built;
    const prompt = images.length > 0 ? withImages(withTools, images.map(promptImageOf)) : withTools;
    exchange.citations = built.citations ?? [];
    await spend?.raiseTo({ inputTokens: prompt.estimatedInputTokens, outputTokens: spendOutputTokens });
    const apiKey = modelKeyOf(ctx, agent);
    const specs = toolbox
      ? [...toolbox.tools.values()].map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))
      : [];
    const call = {
      modelName: name,
      settings: {
        ...(temperature !== undefined ? { temperature } : {}),
        ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
        ...(topP !== undefined ? { topP } : {}),
      },
      ...(apiKey !== undefined ? { apiKey } : {}),
      cacheKey: promptCacheKeyOf(agent.id, conversation),
      watched: input.stream === true,
    };
    const tools: ToolLoop | null = toolbox
      ? {
          toolbox,
          limits: ctx.deps.plugins.limits,
          maxSteps: maxSteps ?? defaultMaxSteps,
          signal,
          nextStep: (steps: PromptMessage[], offerTools: boolean) =>
            ctx.deps.models.open(
              provider as ProviderName,
              {
                ...call,
                prompt: { ...prompt, messages: [...prompt.messages, ...steps] },
                ...(offerTools ? { tools: specs } : {}),
              },
              signal,
            ),
        }
      : null;
    let opened;
    try {
      opened = await ctx.deps.models.open(
        provider as ProviderName,
        { ...call, prompt, ...(specs.length > 0 ? { tools: specs } : {}) },
        signal,
      );
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      counted = true;
      recordMessageMetrics(ctx, exchange, {
        failure: error.kind === 'aborted' ? null : failureTypeOf(error),
        completed: false,
        toolCalls: 0,
        usage: noUsage,
        firstTextTick: null,
      });
      if (error.kind === 'aborted') {
        // The client left before the first word: the exchange is kept, with nothing said.
        const usage = {
          inputTokens: prompt.estimatedInputTokens,
          outputTokens: 0,
          totalTokens: prompt.estimatedInputTokens,
        };
        await storeExchange(ctx, exchange, { text: '', finishReason: 'aborted', usage, toolCalls: [] });
        leftEarly = run.stopReason !== 'shutdown';
        throw new AppError('provider_unavailable', 'The client closed the connection before the reply began.');
      }
      throw await appErrorForFailure(ctx, agent, error, exchange);
    }
    rowGate?.open();
    return new Reply(ctx, agent, exchange, prompt, opened, lease, tools, run);
  } catch (error) {
    rowGate?.open();
    await discardKeptImages(ctx, exchange);
    if (run !== null) await endUnstartedRun(ctx, run, exchange.replyId, error, leftEarly);
    if (!counted) {
      recordMessageMetrics(ctx, exchange, {
        failure: 'internal',
        completed: false,
        toolCalls: 0,
        usage: noUsage,
        firstTextTick: null,
      });
    }
    await lease.release();
    throw error;
  }
}

/** A run whose reply never began ends with the problem its request got (recorded as `message.failed`). */
export async function endUnstartedRun(
  ctx: ServiceContext,
  run: RunLog,
  messageId: string,
  error: unknown,
  leftEarly: boolean,
): Promise<void> {
  if (leftEarly) {
    await ctx.deps.runs.finish(run, { status: 'cancelled', reply: null, error: null });
    return;
  }
  const appError =
    error instanceof AppError
      ? error
      : new AppError('internal', 'An unexpected error occurred; it has been logged with the request id.');
  const problem = problemBody(appError, ctx.requestId);
  run.record({ event: 'message.failed', data: { id: messageId, error: problem } });
  await ctx.deps.runs.finish(run, { status: 'failed', reply: null, error: problem });
}

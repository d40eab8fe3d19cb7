import type { AssembledPrompt, PromptMessage } from '../../conversation/prompt.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ProviderName } from '../../providers/catalog.js';
import { promptCacheKeyOf } from '../../providers/prompt-cache.js';
import { findOwnAgent } from '../agents/get-agent.js';
import type { PausedState, ToolDecision } from '../approvals/paused-state.js';
import { requireScope, type ServiceContext } from '../context.js';
import { ensureAnswering } from './agent-availability.js';
import type { Exchange } from './exchange-store.js';
import type { JournalExchange } from '../runs/run-journal.js';
import type { RunLog, WireEvent } from '../runs/run-log.js';
import { countResumedSpend, type SpendReservation } from '../spend/admit-spend.js';
import { recordMessageMetrics } from './message-metrics.js';
import { Reply, type ResumeStart, type ToolLoop } from './reply.js';
import { endUnstartedRun, maxToolCallsPerReply, modelKeyOf, openRun, waitForAgentSlot } from './send-message.js';

/** Tool rounds per reply when the agent's model settings name none (as for a message). */
const defaultMaxSteps = 5;

/**
 * The rest of a reply that paused for approvals, as the queued run `runId`
 * (trigger `approval`) on this instance: the calls of the round that paused
 * are run (approved) or told as denied, then the model goes on from the prompt
 * and the tool rounds the paused reply had reached, with the agent's tools as
 * they are now. Only its tool turns and its answer are stored: the message was
 * stored with the paused part. Resolves once the run has begun; the reply's
 * events are the run's.
 */
export async function resumeReply({
  ctx,
  agentId,
  runId,
  pausedRunId,
  signal,
  takenOver,
}: {
  ctx: ServiceContext;
  agentId: string;
  runId: string;
  pausedRunId: string;
  signal: AbortSignal;
  /** A run taken over before anything of it was recorded: the events it stored, and what its readers are told. */
  takenOver?: { afterSeq: number; resumed: WireEvent };
}): Promise<Reply> {
  requireScope(ctx, 'messages:send');
  const startedTick = performance.now();
  const startedAt = ctx.deps.clock.now();
  const { approvals } = ctx.deps.repositories;
  // Independent reads, together: the time from a decision to the resumed reply is a few round trips.
  const [agent, paused, decided] = await Promise.all([
    findOwnAgent(ctx, agentId),
    approvals.pausedRun(pausedRunId),
    approvals.ofRun(pausedRunId),
  ]);
  await ensureAnswering(ctx, agent);
  if (paused === undefined) throw new AppError('not_found', `The paused run ${pausedRunId} no longer exists.`);
  const state = JSON.parse(paused.state) as PausedState;
  const decisions = new Map<string, ToolDecision>();
  for (const row of decided) {
    if (row.status === 'pending') throw new AppError('conflict', `Approval ${row.id} is still pending.`);
    decisions.set(row.id, {
      approvalId: row.id,
      status: row.status as ToolDecision['status'],
      reason: row.reason,
    });
  }
  const { provider, name } = agent.profile.model;
  return continueReply(ctx, agent, runId, signal, {
    exchange: {
      agentId: agent.id,
      userId: state.userId,
      roomId: state.roomId,
      conversation: state.conversation,
      userTurnId: newId('message'),
      toolTurnIds: Array.from({ length: maxToolCallsPerReply }, () => newId('message')),
      replyId: newId('message'),
      text: state.text,
      model: { provider, name },
      startedAt,
      runId,
      trigger: 'approval',
      citations: state.prompt.citations ?? [],
      origin: state.origin,
      continuation: true,
    },
    startedTick,
    prompt: state.prompt,
    ...(takenOver !== undefined ? { takenOver } : {}),
    start: () => ({
      steps: [...state.steps],
      stepText: state.stepText,
      calls: decidedCalls(state.calls, decisions),
      step: state.step,
    }),
  });
}

/**
 * A reply that goes on from a recorded point as the queued run `runId` on this
 * instance: it waits for one of the agent's slots, counts against the spend
 * limits as it goes (never refused half-way), opens its run (after the events
 * a run taken over had stored) and builds the reply from `start`.
 */
export async function continueReply(
  ctx: ServiceContext,
  agent: AgentRecord,
  runId: string,
  signal: AbortSignal,
  from: {
    exchange: JournalExchange;
    startedTick: number;
    prompt: AssembledPrompt;
    start: () => ResumeStart;
    /** A run taken over: the last event it stored, and the event its readers are told first. */
    takenOver?: { afterSeq: number; resumed: WireEvent };
    /** Before the reply starts, with the agent's tools: recovers what the start needs (a call's outcome). */
    recover?: (tools: ToolLoop) => Promise<void>;
  },
): Promise<Reply> {
  const slots = await waitForAgentSlot(ctx, agent, runId);
  let spend: SpendReservation | null;
  try {
    spend = await countResumedSpend(ctx, agent);
  } catch (error) {
    await slots.release();
    throw error;
  }
  const counted = spend;
  const lease =
    counted === null
      ? slots
      : { release: () => Promise.all([slots.release(), counted.settle()]).then(() => undefined) };
  const exchange: Exchange = {
    ...from.exchange,
    agentVersion: agent.version,
    startedTick: from.startedTick,
    streamed: false,
    ...(counted !== null ? { spend: counted } : {}),
  };
  let run: RunLog | null = null;
  try {
    run = await openRun(ctx, exchange, exchange.trigger, true, null, undefined, from.takenOver?.afterSeq);
    if (from.takenOver !== undefined) run.record(from.takenOver.resumed);
    const runSignal = AbortSignal.any([signal, run.signal]);
    const tools = await continuationTools(ctx, agent, from.prompt, exchange.conversation, runSignal);
    await from.recover?.(tools);
    return new Reply(ctx, agent, exchange, from.prompt, null, lease, tools, run, from.start());
  } catch (error) {
    if (run !== null) await endUnstartedRun(ctx, run, exchange.replyId, error, false);
    recordMessageMetrics(ctx, exchange, {
      failure: 'internal',
      completed: false,
      toolCalls: 0,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      firstTextTick: null,
    });
    await lease.release();
    throw error;
  }
}

/**
 * The model's next steps of a reply that goes on from a recorded point (after
 * approvals, or taken over from a stopped instance): the agent's tools as they
 * are now (a tool removed meanwhile is reported to the model as missing), the
 * prompt as the model was first given it.
 */
export async function continuationTools(
  ctx: ServiceContext,
  agent: AgentRecord,
  prompt: AssembledPrompt,
  conversation: string | null,
  runSignal: AbortSignal,
): Promise<ToolLoop> {
  const toolbox = (await ctx.deps.plugins.toolsets.toolboxFor(agent)) ?? {
    tools: new Map(),
    unavailable: [],
    approvals: new Map(),
  };
  const specs = [...toolbox.tools.values()].map(({ name, description, inputSchema }) => ({
    name,
    description,
    inputSchema,
  }));
  const { provider, name, topP, maxSteps, temperature, maxOutputTokens } = agent.profile.model;
  const apiKey = modelKeyOf(ctx, agent);
  const call = {
    modelName: name,
    settings: {
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
      ...(topP !== undefined ? { topP } : {}),
    },
    ...(apiKey !== undefined ? { apiKey } : {}),
    cacheKey: promptCacheKeyOf(agent.id, conversation),
    watched: false,
  };
  return {
    toolbox,
    limits: ctx.deps.plugins.limits,
    maxSteps: maxSteps ?? defaultMaxSteps,
    signal: runSignal,
    nextStep: (steps: PromptMessage[], offerTools: boolean) =>
      ctx.deps.models.open(
        provider as ProviderName,
        {
          ...call,
          prompt: { ...prompt, messages: [...prompt.messages, ...steps] },
          ...(offerTools && specs.length > 0 ? { tools: specs } : {}),
        },
        runSignal,
      ),
  };
}

/**
 * The paused round's calls, each call still waiting with the decision of its
 * own approval. Every waiting call must have an approval of its own, decided:
 * a state in which two calls share an approval (a run paused before calls were
 * matched to approvals by position, when a model repeated an id) or one has
 * none is not resumed, since a call must never run under a decision taken for
 * another. The run ends instead, running none of them.
 */
function decidedCalls(calls: PausedState['calls'], decisions: ReadonlyMap<string, ToolDecision>): ResumeStart['calls'] {
  const seen = new Set<string>();
  return calls.map((paused) => {
    if (paused.result !== undefined) return paused;
    const decision = paused.approvalId === undefined ? undefined : decisions.get(paused.approvalId);
    if (decision === undefined || seen.has(decision.approvalId)) {
      throw new AppError(
        'conflict',
        'The paused round’s calls do not each have an approval of their own; none is run.',
      );
    }
    seen.add(decision.approvalId);
    return { ...paused, decision };
  });
}

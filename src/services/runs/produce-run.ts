import { isoTime } from '../../clock.js';
import { AppError, problemBody } from '../../errors.js';
import { newId } from '../../ids.js';
import type { MessageReplyView } from '../../schemas/messages.js';
import type { SendMessageRequest } from '../messages/send-message.js';
import type { RunTrigger } from '../../schemas/runs.js';
import type { ServiceContext, ServiceDeps } from '../context.js';
import { recordAgentEvent } from '../../events/agent-events.js';
import { eventWriterOf } from '../events/event-writer.js';
import { AgentNotActiveError } from '../messages/agent-availability.js';
import { sendMessage } from '../messages/send-message.js';
import { BudgetExceededError } from '../spend/admit-spend.js';
import { resumeReply } from '../messages/resume-reply.js';
import type { Reply } from '../messages/reply.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { ensureAnswering } from '../messages/agent-availability.js';
import { continueFromJournal, resumedEvent } from './continue-run.js';
import type { WireEvent } from './run-log.js';

export interface ProducedRun {
  /** `skipped`: a task's due time whose agent was no longer `active`, or over a spend limit, when its run began. */
  status: 'completed' | 'failed' | 'cancelled' | 'waiting' | 'skipped';
  reply: MessageReplyView | null;
  error: AppError | null;
}

export interface QueuedRun {
  id: string;
  accountId: string;
  agentId: string;
  trigger: RunTrigger;
  /** The task whose due time this run is. */
  taskId?: string | null;
  /** That due time; null or absent for a run started now (POST …/tasks/{taskId}/run) and other triggers. */
  dueAt?: string | null;
  input: Pick<SendMessageRequest, 'text' | 'userId' | 'roomId' | 'context' | 'attachments'>;
  /** The run goes on with the reply of this paused run (trigger `approval`), instead of answering `input`. */
  resume?: { pausedRunId: string };
  /**
   * A run this instance took over from a stopped one (RunRuntime's sweep): it
   * goes on from its journal, or begins again when the journal is empty.
   */
  takeover?: boolean;
}

/**
 * Produces a queued run (its row already written, status `queued`) on this
 * instance: waits for one of the agent's in-flight slots, then replies
 * exactly as POST …/messages does (the run's events are recorded as they
 * come), and ends the run. Never throws: how it ended is the result, and is
 * stored in the run even when the reply could not begin (the agent was
 * paused meanwhile, its model is unavailable).
 */
export async function produceRun(deps: ServiceDeps, run: QueuedRun, signal?: AbortSignal): Promise<ProducedRun> {
  const produced = await produce(deps, run, signal);
  await recordRunEnded(deps, run, produced);
  return produced;
}

/** The agent's trail shows each run the service produced, as it ended. */
async function recordRunEnded(deps: ServiceDeps, run: QueuedRun, produced: ProducedRun): Promise<void> {
  // A skipped due time leaves no trail, as one missed while every instance was down.
  if (produced.status === 'skipped') return;
  const ctx = serviceContext(deps, run);
  const data = {
    runId: run.id,
    trigger: run.trigger,
    taskId: run.taskId ?? null,
    messageId: produced.reply?.id ?? null,
    ...(produced.error ? { code: produced.error.code } : {}),
  };
  try {
    await recordAgentEvent(
      eventWriterOf(ctx, 'service'),
      { id: run.agentId, accountId: run.accountId },
      `run.${produced.status}`,
      data,
      deps.repositories.db,
    );
  } catch (error) {
    deps.logger.error({ err: error, runId: run.id }, 'could not record the end of a run in the trail');
  }
}

/** The service acts on the run's account with only the scope a reply needs, as platform messages do. */
function serviceContext(deps: ServiceDeps, run: QueuedRun): ServiceContext {
  return {
    deps,
    actor: { accountId: run.accountId, keyId: `run:${run.trigger}`, scopes: new Set(['messages:send']) },
    requestId: newId('request'),
  };
}

/**
 * Where a run taken over starts: its journal's continuation, or (nothing
 * durable happened) the events it stored, after which it begins again.
 */
async function takeOverStart(
  ctx: ServiceContext,
  run: QueuedRun,
  signal?: AbortSignal,
): Promise<{ reply: Reply | null; again: { afterSeq: number; resumed: WireEvent } }> {
  const { repositories } = ctx.deps;
  const row = await repositories.runs.findById(run.id);
  if (row === undefined) throw new AppError('not_found', `Run ${run.id} no longer exists.`);
  const agent = await findOwnAgent(ctx, run.agentId);
  await ensureAnswering(ctx, agent);
  const reply = await continueFromJournal(ctx, agent, row, signal ?? new AbortController().signal);
  if (reply !== null) return { reply, again: { afterSeq: 0, resumed: resumedEvent(row, null) } };
  return {
    reply: null,
    again: { afterSeq: await repositories.runs.lastSeq(run.id), resumed: resumedEvent(row, null) },
  };
}

async function produce(deps: ServiceDeps, run: QueuedRun, signal?: AbortSignal): Promise<ProducedRun> {
  const ctx = serviceContext(deps, run);
  try {
    const takenOver = run.takeover === true ? await takeOverStart(ctx, run, signal) : null;
    const answer =
      takenOver?.reply != null
        ? takenOver.reply
        : run.resume !== undefined
          ? await resumeReply({
              ctx,
              agentId: run.agentId,
              runId: run.id,
              pausedRunId: run.resume.pausedRunId,
              signal: signal ?? new AbortController().signal,
              ...(takenOver !== null ? { takenOver: takenOver.again } : {}),
            })
          : await sendMessage({
              ctx,
              agentId: run.agentId,
              input: { ...run.input, stream: false },
              signal: signal ?? new AbortController().signal,
              trigger: run.trigger,
              queuedRunId: run.id,
              ...(takenOver !== null ? { takenOver: takenOver.again } : {}),
            });
    const ended = await answer.outcome();
    return { status: ended.status, reply: ended.reply, error: ended.failure };
  } catch (error) {
    const appError =
      error instanceof AppError
        ? error
        : new AppError('internal', 'An unexpected error occurred; it has been logged with the request id.');
    if (!(error instanceof AppError)) deps.logger.error({ err: error, runId: run.id }, 'a run could not be produced');
    // A run refused before it began (its agent paused or deleted meanwhile) is still queued: it ends here, failed,
    // with the problem as its one event so that its event stream ends like any other. A task's run whose agent had
    // stopped being active between the claim and now is its due time not run, as at the claim: `skipped`, the
    // problem saying why, with no events (as every skipped due time) and counting neither way for the task.
    // So is one a spend limit refused (budget_exceeded): the due time is not run, and the task is not failing.
    const skipped =
      run.trigger === 'task' &&
      run.dueAt != null &&
      (error instanceof AgentNotActiveError || error instanceof BudgetExceededError);
    const problem = problemBody(appError, ctx.requestId);
    const now = isoTime(deps.clock.now());
    await deps.repositories.runs
      .failUnstarted(run.id, { status: skipped ? 'skipped' : 'failed', problem, at: now })
      .catch((failure: unknown) => deps.logger.error({ err: failure, runId: run.id }, 'could not end a run'));
    if (skipped) return { status: 'skipped', reply: null, error: appError };
    const cancelled = appError.code === 'conflict';
    return { status: cancelled ? 'cancelled' : 'failed', reply: null, error: appError };
  }
}

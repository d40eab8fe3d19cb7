import { isoTime } from '../../clock.js';
import { AppError, notFound, validationError } from '../../errors.js';
import type { ListAccountRunsQueryValue } from '../../schemas/account-runs.js';
import type { MessageReplyView } from '../../schemas/messages.js';
import type { ListRunsQueryValue, RunListView, RunStatus, RunTrigger, RunView } from '../../schemas/runs.js';
import type { RunRow } from '../../storage/repositories/runs.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { decodeLastIdCursor, encodeLastIdCursor } from '../last-id-cursor.js';

const defaultLimit = 20;
/** How long a cancel of a run produced here waits for it to store its end before answering. */
const cancelWaitMs = 5_000;

export function runView(ctx: ServiceContext, row: RunRow): RunView {
  const live = ctx.deps.runs.live.get(row.id);
  return {
    id: row.id,
    agentId: row.agent_id,
    trigger: row.trigger as RunTrigger,
    taskId: row.task_id,
    approvalId: row.approval_id,
    dueAt: row.due_at,
    agentVersion: row.agent_version,
    takeovers: row.takeovers,
    status: row.status as RunStatus,
    background: row.background === 1,
    userId: row.user_id,
    roomId: row.room_id,
    input: row.input,
    messageId: row.message_id,
    reply: row.result === null ? null : (JSON.parse(row.result) as MessageReplyView),
    error: row.error === null ? null : (JSON.parse(row.error) as RunView['error']),
    eventCount: live === undefined ? row.event_count : live.lastSeq,
    cancelRequestedAt: row.cancel_requested_at,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** The run of the account's agent, or 404 (for another account's ids too). */
export async function findOwnRun(ctx: ServiceContext, agentId: string, runId: string): Promise<RunRow> {
  await findOwnAgent(ctx, agentId);
  const row = await ctx.deps.repositories.runs.find(ctx.actor.accountId, agentId, runId);
  if (row === undefined) throw notFound('Run');
  return row;
}

export async function listRuns({
  ctx,
  agentId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: ListRunsQueryValue;
}): Promise<RunListView> {
  requireScope(ctx, 'agents:read');
  await findOwnAgent(ctx, agentId);
  // `task` is the name the filter had before it was named like the field it filters on.
  if (query.task !== undefined && query.taskId !== undefined && query.task !== query.taskId) {
    throw validationError(
      '/query/task',
      'differs from taskId: task is the deprecated name of taskId, send only taskId',
    );
  }
  const taskId = query.taskId ?? query.task;
  return pageOfRuns(ctx, { ...query, agentId, ...(taskId !== undefined ? { taskId } : {}) });
}

/** The runs of every agent of the account (or of one, `agentId`), newest first. */
export async function listAccountRuns({
  ctx,
  query,
}: {
  ctx: ServiceContext;
  query: ListAccountRunsQueryValue;
}): Promise<RunListView> {
  requireScope(ctx, 'agents:read');
  return pageOfRuns(ctx, query);
}

/** One page of the account's runs, newest first, with the filters given; both listings read through it. */
async function pageOfRuns(
  ctx: ServiceContext,
  query: { agentId?: string; status?: string; trigger?: string; taskId?: string; limit?: number; cursor?: string },
): Promise<RunListView> {
  const limit = query.limit ?? defaultLimit;
  const beforeId = query.cursor !== undefined ? decodeLastIdCursor('run', query.cursor) : undefined;
  const rows = await ctx.deps.repositories.runs.page({
    accountId: ctx.actor.accountId,
    limit: limit + 1,
    ...(query.agentId !== undefined ? { agentId: query.agentId } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(query.trigger !== undefined ? { trigger: query.trigger } : {}),
    ...(query.taskId !== undefined ? { taskId: query.taskId } : {}),
    ...(beforeId !== undefined ? { beforeId } : {}),
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => runView(ctx, row)),
    pagination: { limit, hasMore, nextCursor: hasMore && last ? encodeLastIdCursor(last.id) : null },
  };
}

export async function getRun({
  ctx,
  agentId,
  runId,
}: {
  ctx: ServiceContext;
  agentId: string;
  runId: string;
}): Promise<RunView> {
  requireScope(ctx, 'agents:read');
  return runView(ctx, await findOwnRun(ctx, agentId, runId));
}

/**
 * Cancels a run that has not ended. Produced here: stopped at once (the model
 * call and any tool are aborted, what was said is kept with finishReason
 * `aborted`) and answered once its end is stored. Queued: ended before it
 * begins. Running on another instance: that instance sees the request at its
 * next heartbeat and stops it the same way.
 */
export async function cancelRun({
  ctx,
  agentId,
  runId,
}: {
  ctx: ServiceContext;
  agentId: string;
  runId: string;
}): Promise<RunView> {
  requireScope(ctx, 'messages:send');
  const row = await findOwnRun(ctx, agentId, runId);
  if (!(await requestRunCancel(ctx, row))) {
    throw new AppError('conflict', `Run ${runId} has already ended (${row.status}); there is nothing to cancel.`);
  }
  const { runs: runRepository } = ctx.deps.repositories;
  return runView(ctx, (await runRepository.find(ctx.actor.accountId, agentId, runId)) ?? row);
}

/**
 * Asks a run of the caller's account (`row`, already found as the caller's)
 * to end, as `cancelRun` describes; false when it had already ended. Every
 * way of cancelling a run goes through here, so a run is stopped the same way
 * whichever instance is asked.
 */
export async function requestRunCancel(ctx: ServiceContext, row: RunRow): Promise<boolean> {
  const { runs: runRepository } = ctx.deps.repositories;
  const now = isoTime(ctx.deps.clock.now());
  if (!(await runRepository.requestCancel(row.id, now))) return false;
  if (ctx.deps.runs.stopLocal(row.id, 'cancelled')) {
    await ctx.deps.runs.ended(row.id, cancelWaitMs);
  } else if (row.status === 'queued') {
    await runRepository.finish(row.id, {
      status: 'cancelled',
      finishReason: null,
      usage: null,
      result: null,
      error: null,
      eventCount: row.event_count,
      finishedAt: now,
    });
  }
  return true;
}

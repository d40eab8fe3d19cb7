import { isoTime } from '../../clock.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type {
  ApprovalListView,
  ApprovalStatus,
  ApprovalView,
  DecideApprovalInput,
  ListApprovalsQueryValue,
} from '../../schemas/approvals.js';
import type { ApprovalRow } from '../../storage/repositories/approvals.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext, type ServiceDeps } from '../context.js';
import { decodeLastIdCursor, encodeLastIdCursor } from '../last-id-cursor.js';

const defaultLimit = 20;
/** Expired approvals settled per sweep (or per read): the rest wait for the next one. */
const expiryBatch = 100;

export function approvalView(row: ApprovalRow): ApprovalView {
  return {
    id: row.id,
    agentId: row.agent_id,
    runId: row.run_id,
    toolCallId: row.tool_call_id,
    name: row.tool_name,
    input: JSON.parse(row.input) as unknown,
    status: row.status as ApprovalStatus,
    reason: row.reason,
    userId: row.user_id,
    roomId: row.room_id,
    expiresAt: row.expires_at,
    decidedAt: row.decided_at,
    resumedRunId: row.resumed_run_id,
    createdAt: row.created_at,
  };
}

/** A run to go on with a paused reply: written (queued) with the decision that made it, produced after commit. */
export interface ResumeOrder {
  runId: string;
  pausedRunId: string;
  accountId: string;
  agentId: string;
  /** A run taken over from a stopped instance: it goes on from its journal. */
  takeover?: boolean;
}

/** Goes on with paused replies once their decisions are in (see approval-runtime.ts). */
export interface ResumeStarter {
  start(order: ResumeOrder): void;
}

/**
 * Records a decision (a person's, or expiry's) on a pending approval, in one
 * transaction that takes the paused run's row first, so the decisions of one
 * run are taken one after the other on every instance. The decision that
 * leaves none of the run's approvals pending settles the waiting run
 * (`completed`) and writes the run that goes on with the reply (trigger
 * `approval`, queued on this instance), which is started once committed.
 * False when the approval was no longer pending.
 */
async function settleApproval(
  deps: ServiceDeps,
  row: ApprovalRow,
  decision: { status: 'approved' | 'denied' | 'expired'; reason: string | null; decidedBy: string | null },
): Promise<boolean> {
  const { repositories, clock, runs: runtime } = deps;
  const { approvals, runs, db } = repositories;
  const now = isoTime(clock.now());
  let order = null as ResumeOrder | null;
  const decided = await db.transaction().execute(async (transaction) => {
    if (!(await approvals.lockPausedRun(row.run_id, transaction))) return false;
    const runId = newId('run');
    const result = await runs.decideApproval(
      {
        approvalId: row.id,
        pausedRunId: row.run_id,
        ...decision,
        at: now,
        resume: {
          runId,
          accountId: row.account_id,
          agentId: row.agent_id,
          userId: row.user_id,
          roomId: row.room_id,
          // This instance produces it: should it stop before the run begins, the sweep ends the run.
          instanceId: runtime.instanceId,
        },
      },
      transaction,
    );
    if (result.resumed) {
      order = { runId, pausedRunId: row.run_id, accountId: row.account_id, agentId: row.agent_id };
    }
    return result.decided;
  });
  if (order !== null) deps.approvals.start(order);
  return decided;
}

/**
 * Settles the pending approvals past their expiry (all of them, or one
 * agent's): each as `expired`, which the model reads as a denial. Called by
 * the run runtime's heartbeat on every instance, and before reads and
 * decisions, so an expired request never shows as pending.
 */
export async function expireApprovals(
  deps: ServiceDeps,
  owner: { agentId?: string; accountId?: string } = {},
): Promise<number> {
  const now = isoTime(deps.clock.now());
  const due = await deps.repositories.approvals.expired(now, expiryBatch, owner);
  let settled = 0;
  for (const row of due) {
    try {
      if (await settleApproval(deps, row, { status: 'expired', reason: null, decidedBy: null })) settled += 1;
    } catch (error) {
      // Another instance may be settling it at the same moment; the next sweep sees how it ended.
      deps.logger.warn({ err: error, approvalId: row.id }, 'could not settle an expired approval');
    }
  }
  return settled;
}

async function findOwnApproval(ctx: ServiceContext, agentId: string, approvalId: string): Promise<ApprovalRow> {
  // Together: the approval's read names the agent and the account, so it finds nothing of another's agent.
  const [, row] = await Promise.all([
    findOwnAgent(ctx, agentId),
    ctx.deps.repositories.approvals.find(ctx.actor.accountId, agentId, approvalId),
  ]);
  if (row === undefined) throw notFound('Approval');
  return row;
}

export async function listApprovals({
  ctx,
  agentId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: ListApprovalsQueryValue;
}): Promise<ApprovalListView> {
  requireScope(ctx, 'agents:read');
  await findOwnAgent(ctx, agentId);
  await expireApprovals(ctx.deps, { agentId });
  return approvalPage(ctx, query, agentId);
}

/**
 * The approvals of every agent of the account, newest first, in the same
 * shape and pages as one agent's: where a person sees everything that waits
 * for them at once.
 */
export async function listAccountApprovals({
  ctx,
  query,
}: {
  ctx: ServiceContext;
  query: ListApprovalsQueryValue;
}): Promise<ApprovalListView> {
  requireScope(ctx, 'agents:read');
  await expireApprovals(ctx.deps, { accountId: ctx.actor.accountId });
  return approvalPage(ctx, query);
}

async function approvalPage(
  ctx: ServiceContext,
  query: ListApprovalsQueryValue,
  agentId?: string,
): Promise<ApprovalListView> {
  const limit = query.limit ?? defaultLimit;
  const beforeId = query.cursor !== undefined ? decodeLastIdCursor('approval', query.cursor) : undefined;
  const rows = await ctx.deps.repositories.approvals.page({
    accountId: ctx.actor.accountId,
    ...(agentId !== undefined ? { agentId } : {}),
    limit: limit + 1,
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(beforeId !== undefined ? { beforeId } : {}),
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(approvalView),
    pagination: { limit, hasMore, nextCursor: hasMore && last ? encodeLastIdCursor(last.id) : null },
  };
}

export async function getApproval({
  ctx,
  agentId,
  approvalId,
}: {
  ctx: ServiceContext;
  agentId: string;
  approvalId: string;
}): Promise<ApprovalView> {
  requireScope(ctx, 'agents:read');
  let row = await findOwnApproval(ctx, agentId, approvalId);
  if (row.status === 'pending' && row.expires_at <= isoTime(ctx.deps.clock.now())) {
    await expireApprovals(ctx.deps, { agentId });
    row = (await ctx.deps.repositories.approvals.findById(approvalId)) ?? row;
  }
  return approvalView(row);
}

/**
 * A person's decision on a pending approval: taken once (a second one, or one
 * after expiry, is 409 `conflict`). The reply goes on in a new run once every
 * approval of its paused run is decided; the answer names it (`resumedRunId`).
 */
export async function decideApproval({
  ctx,
  agentId,
  approvalId,
  input,
}: {
  ctx: ServiceContext;
  agentId: string;
  approvalId: string;
  input: DecideApprovalInput;
}): Promise<ApprovalView> {
  requireScope(ctx, 'approvals:write');
  const row = await findOwnApproval(ctx, agentId, approvalId);
  const { approvals } = ctx.deps.repositories;
  if (row.status === 'pending' && row.expires_at <= isoTime(ctx.deps.clock.now())) {
    await settleApproval(ctx.deps, row, { status: 'expired', reason: null, decidedBy: null });
    throw new AppError('conflict', `Approval ${approvalId} expired at ${row.expires_at}; the model was told so.`);
  }
  const decided =
    row.status === 'pending' &&
    (await settleApproval(ctx.deps, row, {
      status: input.decision === 'approve' ? 'approved' : 'denied',
      reason: input.reason ?? null,
      decidedBy: ctx.actor.keyId,
    }));
  if (!decided) {
    const now = (await approvals.findById(approvalId)) ?? row;
    throw new AppError('conflict', `Approval ${approvalId} has already been decided (${now.status}).`);
  }
  return approvalView((await approvals.findById(approvalId)) ?? row);
}

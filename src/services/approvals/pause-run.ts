import { isoTime } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { OutboxEvent } from '../../events/webhook-outbox.js';
import { newId } from '../../ids.js';
import type { PendingApprovalView } from '../../schemas/approvals.js';
import type { ServiceContext } from '../context.js';
import type { PausedState } from './paused-state.js';

/**
 * A call of the round that paused which waits for a decision, with how long it may wait. The requested calls are
 * the calls of the paused state that have no result, in the same order.
 */
export interface RequestedApproval {
  toolCallId: string;
  toolName: string;
  input: unknown;
  expiresAfterSeconds: number;
}

const mismatch = () =>
  new AppError('internal', 'The calls waiting for approval do not match the paused round’s calls.');

/**
 * Each waiting call with its approval, matched by position: the n-th call without a result waits for the n-th
 * approval. Not by `toolCallId`: a model may give two calls of one round the same id (providers do not all make
 * them unique), and a call must never run under the decision taken for another.
 */
function withApprovals(
  calls: Omit<PausedState['calls'][number], 'approvalId'>[],
  pending: Array<{ approvalId: string; toolCallId: string; name: string }>,
): PausedState['calls'] {
  let next = 0;
  const matched = calls.map((call) => {
    if (call.result !== undefined) return call;
    const approval = pending[next];
    next += 1;
    if (approval === undefined || approval.toolCallId !== call.toolCallId || approval.name !== call.toolName) {
      throw mismatch();
    }
    return { ...call, approvalId: approval.approvalId };
  });
  if (next !== pending.length) throw mismatch();
  return matched;
}

/**
 * Stores a paused reply: its state and one pending approval per call that
 * waits, with an `approval.requested` webhook event each, in one transaction.
 * From then on any instance can take the decisions and go on with the reply.
 */
export async function pauseRun(
  ctx: ServiceContext,
  run: { runId: string; agentId: string },
  state: Omit<PausedState, 'calls'> & { calls: Omit<PausedState['calls'][number], 'approvalId'>[] },
  requested: RequestedApproval[],
): Promise<PendingApprovalView[]> {
  const { repositories, webhooks, clock } = ctx.deps;
  const now = clock.now();
  const createdAt = isoTime(now);
  const pending = requested.map((call) => ({
    approvalId: newId('approval'),
    toolCallId: call.toolCallId,
    name: call.toolName,
    input: call.input,
    expiresAt: isoTime(now + call.expiresAfterSeconds * 1000),
  }));
  const stored: PausedState = { ...state, calls: withApprovals(state.calls, pending) };
  const events: OutboxEvent[] = pending.map((approval) => ({
    id: newId('event'),
    accountId: ctx.actor.accountId,
    type: 'approval.requested',
    data: {
      agentId: run.agentId,
      approvalId: approval.approvalId,
      runId: run.runId,
      toolCallId: approval.toolCallId,
      name: approval.name,
      userId: state.userId,
      roomId: state.roomId,
      expiresAt: approval.expiresAt,
    },
    occurredAt: createdAt,
  }));
  let written = 0;
  await repositories.db.transaction().execute(async (transaction) => {
    await repositories.approvals.insertPause(
      {
        run_id: run.runId,
        account_id: ctx.actor.accountId,
        agent_id: run.agentId,
        state: JSON.stringify(stored),
        decisions: 0,
        resumed_run_id: null,
        created_at: createdAt,
      },
      pending.map((approval) => ({
        id: approval.approvalId,
        account_id: ctx.actor.accountId,
        agent_id: run.agentId,
        run_id: run.runId,
        tool_call_id: approval.toolCallId,
        tool_name: approval.name,
        input: JSON.stringify(approval.input ?? null),
        status: 'pending',
        reason: null,
        decided_by: null,
        user_id: state.userId,
        room_id: state.roomId,
        expires_at: approval.expiresAt,
        decided_at: null,
        resumed_run_id: null,
        created_at: createdAt,
      })),
      transaction,
    );
    for (const event of events) written += await webhooks.outbox.enqueue(event, transaction);
  });
  webhooks.outbox.committed(written);
  return pending;
}

import { CompiledQuery, type Transaction } from 'kysely';
import type { Database } from '../schema.js';

/** A decision on one pending approval, and the run that goes on with the paused reply if it is the last. */
export interface ApprovalDecision {
  approvalId: string;
  pausedRunId: string;
  status: 'approved' | 'denied' | 'expired';
  reason: string | null;
  decidedBy: string | null;
  at: string;
  /** Written queued when the decision leaves none of the paused run's approvals pending (its input is the paused run's). */
  resume: {
    runId: string;
    accountId: string;
    agentId: string;
    userId: string | null;
    roomId: string | null;
    instanceId: string;
  };
}

/*
 * After `ApprovalRepository.lockPausedRun` in the same transaction: its lock
 * serialises the decisions of one paused run, so this statement's snapshot,
 * taken after the lock, sees every decision committed before it. It does what
 * `decide`, `pendingOf`, `claimResume`, `RunRepository.settleWaiting` and the
 * insert of the queued run do one after the other on SQLite: the decision,
 * and when it is the last pending one, the claim of the resume, the waiting
 * run settled and the resumed run written. Two updates of one row are not
 * allowed in one statement, so the decided approval gets its resumed run id
 * from its own update and the others from `marked`.
 */
const lastPending = `not exists (select 1 from approvals where run_id = $2 and status = 'pending' and id <> $1)
    and exists (select 1 from paused_runs where run_id = $2 and resumed_run_id is null)`;
const statementText = `with decided as (
  update approvals set status = $3, reason = $4, decided_by = $5, decided_at = $6,
    resumed_run_id = case when ${lastPending} then $7 else resumed_run_id end
  where id = $1 and status = 'pending'
  returning id
), claimed as (
  update paused_runs set resumed_run_id = $7
  where run_id = $2 and resumed_run_id is null and exists (select from decided)
    and not exists (select 1 from approvals where run_id = $2 and status = 'pending' and id <> $1)
  returning run_id
), marked as (
  update approvals set resumed_run_id = $7 where run_id = $2 and id <> $1 and exists (select from claimed)
), settled as (
  update runs set status = 'completed' where id = $2 and status = 'waiting' and exists (select from claimed)
), queued as (
  insert into runs (id, account_id, agent_id, trigger, task_id, due_at, status, background, user_id, room_id, input,
    message_id, instance_id, event_count, created_at, started_at, approval_id)
  select $7, $8::text, $9::text, 'approval', null, null, 'queued', 1, $10::text, $11::text,
    coalesce((select input from runs where id = $2), ''), null, $12::text, 0, $6, null, $1
  where exists (select from claimed)
)
select exists (select from decided) as decided, exists (select from claimed) as resumed`;

/**
 * A decision on an approval in one statement (PostgreSQL only: SQLite has no
 * data-modifying common table expressions, and its statements are function
 * calls, not round trips): the decision's transaction is then BEGIN, the
 * paused run's lock, this, COMMIT.
 */
export class ApprovalDecisionRepository {
  /** `decided`: false when the approval was no longer pending; `resumed`: the resumed run was written. */
  async decide(
    decision: ApprovalDecision,
    transaction: Transaction<Database>,
  ): Promise<{ decided: boolean; resumed: boolean }> {
    const { resume } = decision;
    const result = await transaction.executeQuery<{ decided: boolean; resumed: boolean }>(
      CompiledQuery.raw(statementText, [
        decision.approvalId,
        decision.pausedRunId,
        decision.status,
        decision.reason,
        decision.decidedBy,
        decision.at,
        resume.runId,
        resume.accountId,
        resume.agentId,
        resume.userId,
        resume.roomId,
        resume.instanceId,
      ]),
    );
    const row = result.rows[0] as { decided: boolean; resumed: boolean };
    return { decided: row.decided, resumed: row.resumed };
  }
}

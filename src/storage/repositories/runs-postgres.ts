import { CompiledQuery } from 'kysely';
import type { Executor } from '../schema.js';
import type { MessageRow } from './messages.js';
import {
  unfinishedRunStatuses,
  type ApprovalDecision,
  type ApprovalDecisionResult,
  type CompletedReplyResult,
  type CompletedReplyWrite,
  type RunDialectWrites,
} from './runs.js';
import { subscriberPattern } from './webhooks.js';

const turnColumns = [
  ['id', 'text'],
  ['agent_id', 'text'],
  ['conversation', 'text'],
  ['user_id', 'text'],
  ['room_id', 'text'],
  ['role', 'text'],
  ['text', 'text'],
  ['finish_reason', 'text'],
  ['usage', 'text'],
  ['model', 'text'],
  ['latency_ms', 'integer'],
  ['tool', 'text'],
  ['attachments', 'text'],
  ['created_at', 'text'],
] as const satisfies ReadonlyArray<readonly [keyof MessageRow, string]>;

/*
 * A completed reply's end in one statement, one round trip and one commit:
 * the writes its transaction makes otherwise (BEGIN, the agent's key-share
 * lock, the turns, the outbox's subscriber read, the run's end, its events,
 * COMMIT), as data-modifying common table expressions, which all see one
 * snapshot and commit together. The agent's row is key-share locked as in
 * `MessageRepository.insertForExistingAgent`: a delete of the agent either
 * came first (no turns; its runs are gone, so the end changes nothing) or
 * waits for this commit and removes them with it. The turns are passed as one
 * array per column, so the SQL text is the same whatever their number.
 *
 * Built when the store is, not when this module loads: runs.ts, whose
 * constants it names, imports this module.
 */
function completedReplyStatement(): string {
  const offset = 4;
  const runOffset = offset + turnColumns.length;
  return `with agent as materialized (
  select id from agents where id = $1 for key share
), subscribed as materialized (
  select 1 from webhooks where $2::boolean and account_id = $3 and enabled = 1 and events like $4 limit 1
), turns as (
  insert into messages (${turnColumns.map(([column]) => column).join(', ')})
  select * from unnest(${turnColumns.map(([, type], index) => `$${offset + 1 + index}::${type}[]`).join(', ')})
  where exists (select from agent) and not exists (select from subscribed)
  returning 1
), ended as (
  update runs set status = $${runOffset + 1}, finish_reason = $${runOffset + 2}, usage = $${runOffset + 3},
    result = $${runOffset + 4}, error = $${runOffset + 5}, event_count = $${runOffset + 6}::integer,
    finished_at = $${runOffset + 7}
  where id = $${runOffset + 8} and status in (${unfinishedRunStatuses.map((status) => `'${status}'`).join(', ')})
    and not exists (select from subscribed)
  returning id
), events as (
  insert into run_events (run_id, first_seq, last_seq, events, created_at)
  select id, $${runOffset + 9}::integer, $${runOffset + 10}::integer, $${runOffset + 11}::text, $${runOffset + 7}::text
  from ended where $${runOffset + 9}::integer is not null
)
select exists (select from subscribed) as subscribed, exists (select from agent) as agent,
  exists (select from ended) as ended`;
}

/*
 * After `ApprovalRepository.lockPausedRun` in the same transaction: its lock
 * serialises the decisions of one paused run, so this statement's snapshot,
 * taken after the lock, sees every decision committed before it. It does what
 * runs-sqlite.ts does one statement after the other: the decision, and when
 * it is the last pending one, the claim of the resume, the waiting run
 * settled and the resumed run written. Two updates of one row are not
 * allowed in one statement, so the decided approval gets its resumed run id
 * from its own update and the others from `marked`.
 */
const lastPending = `not exists (select 1 from approvals where run_id = $2 and status = 'pending' and id <> $1)
    and exists (select 1 from paused_runs where run_id = $2 and resumed_run_id is null)`;
const approvalDecisionStatement = `with decided as (
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
 * The run store's writes that span other tables, on PostgreSQL: each one
 * statement of data-modifying common table expressions (SQLite has none, and
 * its statements are function calls, not round trips: see runs-sqlite.ts).
 * A completed reply's end is then one round trip and one commit, and a
 * decision's transaction BEGIN, the paused run's lock, this, COMMIT.
 */
export class PostgresRunWrites implements RunDialectWrites {
  readonly #completedReply = completedReplyStatement();

  constructor(private readonly db: Executor) {}

  async completeReply(write: CompletedReplyWrite): Promise<CompletedReplyResult> {
    const { turns, run, event } = write;
    const parameters: unknown[] = [
      write.agentId,
      event !== null,
      event?.accountId ?? null,
      event ? subscriberPattern(event.type) : null,
      ...turnColumns.map(([column]) => turns.map((turn) => turn[column] ?? null)),
      run.finish.status,
      run.finish.finishReason,
      run.finish.usage,
      run.finish.result,
      run.finish.error,
      run.finish.eventCount,
      run.finish.finishedAt,
      run.runId,
      run.events?.firstSeq ?? null,
      run.events?.lastSeq ?? null,
      run.events?.events ?? null,
    ];
    const result = await this.db.executeQuery<{ subscribed: boolean; agent: boolean; ended: boolean }>(
      CompiledQuery.raw(this.#completedReply, parameters),
    );
    const row = result.rows[0] as { subscribed: boolean; agent: boolean; ended: boolean };
    if (row.subscribed) return { written: false };
    return { written: true, stored: row.agent && turns.length > 0, ended: row.ended };
  }

  async decideApproval(decision: ApprovalDecision, transaction: Executor): Promise<ApprovalDecisionResult> {
    const { resume } = decision;
    const result = await transaction.executeQuery<ApprovalDecisionResult>(
      CompiledQuery.raw(approvalDecisionStatement, [
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
    const row = result.rows[0] as ApprovalDecisionResult;
    return { decided: row.decided, resumed: row.resumed };
  }
}

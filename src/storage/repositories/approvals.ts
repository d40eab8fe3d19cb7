import type { Insertable, Selectable } from 'kysely';
import type { Database, Executor } from '../schema.js';

export type ApprovalRow = Selectable<Database['approvals']>;
export type PausedRunRow = Selectable<Database['paused_runs']>;

export interface ApprovalPageQuery {
  accountId: string;
  /** One agent's approvals; without it, those of every agent of the account. */
  agentId?: string;
  status?: string;
  limit: number;
  /** Keyset position: approvals strictly older than this id (newest first). */
  beforeId?: string;
}

/**
 * Approvals and the paused runs they belong to. Every read by id names the
 * account and the agent, so one account never sees another's approvals.
 * A decision runs in the caller's transaction: `lockPausedRun` first (it
 * serialises the decisions of one run on PostgreSQL; SQLite has one writer),
 * then `decide`, then `pendingOf`: the decision that leaves none pending is the
 * one that resumes the reply, and `claimResume` makes sure it is only one.
 */
export class ApprovalRepository {
  constructor(private readonly db: Executor) {}

  async insertPause(
    paused: Insertable<Database['paused_runs']>,
    approvals: Insertable<Database['approvals']>[],
    executor: Executor = this.db,
  ): Promise<void> {
    await executor.insertInto('paused_runs').values(paused).execute();
    if (approvals.length > 0) await executor.insertInto('approvals').values(approvals).execute();
  }

  async find(accountId: string, agentId: string, approvalId: string, executor: Executor = this.db) {
    return executor
      .selectFrom('approvals')
      .selectAll()
      .where('id', '=', approvalId)
      .where('agent_id', '=', agentId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async findById(approvalId: string, executor: Executor = this.db): Promise<ApprovalRow | undefined> {
    return executor.selectFrom('approvals').selectAll().where('id', '=', approvalId).executeTakeFirst();
  }

  async page(query: ApprovalPageQuery, executor: Executor = this.db): Promise<ApprovalRow[]> {
    let builder = executor.selectFrom('approvals').selectAll().where('account_id', '=', query.accountId);
    if (query.agentId !== undefined) builder = builder.where('agent_id', '=', query.agentId);
    if (query.status !== undefined) builder = builder.where('status', '=', query.status);
    if (query.beforeId !== undefined) builder = builder.where('id', '<', query.beforeId);
    return builder.orderBy('id', 'desc').limit(query.limit).execute();
  }

  /** Takes the paused run's row for this transaction; false when there is none. */
  async lockPausedRun(runId: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable('paused_runs')
      .set((update) => ({ decisions: update('decisions', '+', 1) }))
      .where('run_id', '=', runId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records a decision on a pending approval; false when it was no longer pending. */
  async decide(
    approvalId: string,
    fields: { status: 'approved' | 'denied' | 'expired'; reason: string | null; decidedBy: string | null; at: string },
    executor: Executor,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('approvals')
      .set({ status: fields.status, reason: fields.reason, decided_by: fields.decidedBy, decided_at: fields.at })
      .where('id', '=', approvalId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async pendingOf(runId: string, executor: Executor): Promise<number> {
    const row = await executor
      .selectFrom('approvals')
      .select((select) => select.fn.countAll<number>().as('count'))
      .where('run_id', '=', runId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Names the run that goes on with the paused one; false when one already does. */
  async claimResume(runId: string, resumedRunId: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable('paused_runs')
      .set({ resumed_run_id: resumedRunId })
      .where('run_id', '=', runId)
      .where('resumed_run_id', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await executor.updateTable('approvals').set({ resumed_run_id: resumedRunId }).where('run_id', '=', runId).execute();
    return true;
  }

  async pausedRun(runId: string, executor: Executor = this.db): Promise<PausedRunRow | undefined> {
    return executor.selectFrom('paused_runs').selectAll().where('run_id', '=', runId).executeTakeFirst();
  }

  /** The approvals of a paused run, in the order they were asked. */
  async ofRun(runId: string, executor: Executor = this.db): Promise<ApprovalRow[]> {
    return executor.selectFrom('approvals').selectAll().where('run_id', '=', runId).orderBy('id').execute();
  }

  /** Pending approvals past their expiry, oldest first: all of them, one agent's or one account's. */
  async expired(
    now: string,
    limit: number,
    owner: { agentId?: string; accountId?: string } = {},
    executor: Executor = this.db,
  ): Promise<ApprovalRow[]> {
    let builder = executor
      .selectFrom('approvals')
      .selectAll()
      .where('status', '=', 'pending')
      .where('expires_at', '<=', now);
    if (owner.agentId !== undefined) builder = builder.where('agent_id', '=', owner.agentId);
    if (owner.accountId !== undefined) builder = builder.where('account_id', '=', owner.accountId);
    return builder.orderBy('expires_at').limit(limit).execute();
  }

  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('approvals').where('agent_id', '=', agentId).execute();
    await executor.deleteFrom('paused_runs').where('agent_id', '=', agentId).execute();
  }
}

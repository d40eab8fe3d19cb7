import type { Selectable } from 'kysely';
import type { Dialect, Executor, TasksTable } from '../schema.js';

export type TaskRow = Selectable<TasksTable>;

/** A due task as a claim sees it: the row, locked, and its agent's status now. */
export type DueTaskRow = TaskRow & { agent_status: string };

/** What the end of a task's run changes on the task. */
export interface TaskRunOutcome {
  runId: string;
  at: string;
  status: string;
  /** Why it failed (the run, or the delivery of its output); null on success. */
  error: string | null;
  /** Whether it counts as a failure toward the pause. */
  failed: boolean;
  /** Failures in a row that pause the task. */
  pauseAfter: number;
  /** The reason written when it pauses the task. */
  pauseReason: (failures: number) => string;
}

/**
 * Tasks. Every read a client can cause names the account and the agent; the
 * scheduler's reads (the claim, the outcome of a run) work across accounts.
 */
export class TaskRepository {
  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
  ) {}

  async insert(row: TaskRow, executor: Executor = this.db): Promise<void> {
    await executor.insertInto('tasks').values(row).execute();
  }

  async find(accountId: string, agentId: string, taskId: string, executor: Executor = this.db) {
    let query = executor
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', taskId)
      .where('agent_id', '=', agentId)
      .where('account_id', '=', accountId);
    // A change of a task waits for a claim of it in progress (and the other way round).
    if (this.dialect === 'postgres' && executor.isTransaction) query = query.forUpdate();
    return (await query.executeTakeFirst()) ?? null;
  }

  async findById(taskId: string, executor: Executor = this.db): Promise<TaskRow | null> {
    return (await executor.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirst()) ?? null;
  }

  /** Newest first; `beforeId` continues after the last task of the previous page. */
  async page(
    query: { accountId: string; agentId: string; limit: number; beforeId?: string },
    executor: Executor = this.db,
  ): Promise<TaskRow[]> {
    let builder = executor
      .selectFrom('tasks')
      .selectAll()
      .where('agent_id', '=', query.agentId)
      .where('account_id', '=', query.accountId);
    if (query.beforeId !== undefined) builder = builder.where('id', '<', query.beforeId);
    return builder.orderBy('id', 'desc').limit(query.limit).execute();
  }

  async countForAgent(agentId: string, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .where('agent_id', '=', agentId)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** Writes what the owner changed (and the due time and pause state that follow from it). */
  async update(row: TaskRow, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('tasks')
      .set({
        name: row.name,
        instructions: row.instructions,
        schedule: row.schedule,
        output: row.output,
        enabled: row.enabled,
        paused_reason: row.paused_reason,
        next_due_at: row.next_due_at,
        consecutive_failures: row.consecutive_failures,
        updated_at: row.updated_at,
      })
      .where('id', '=', row.id)
      .where('account_id', '=', row.account_id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(accountId: string, agentId: string, taskId: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .deleteFrom('tasks')
      .where('id', '=', taskId)
      .where('agent_id', '=', agentId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('tasks').where('agent_id', '=', agentId).execute();
  }

  /**
   * Up to `limit` tasks due at `now`, oldest due time first, with their
   * agent's status. Call it in the claim's transaction: on PostgreSQL the
   * rows are locked with SKIP LOCKED, so instances claiming at the same
   * moment take different tasks; on SQLite the transaction is the only
   * writer. Disabled tasks have no due time and are never read.
   */
  async lockDue(now: string, limit: number, transaction: Executor): Promise<DueTaskRow[]> {
    let query = transaction
      .selectFrom('tasks')
      .innerJoin('agents', 'agents.id', 'tasks.agent_id')
      .selectAll('tasks')
      .select('agents.status as agent_status')
      .where('tasks.next_due_at', '<=', now)
      .orderBy('tasks.next_due_at')
      .limit(limit);
    if (this.dialect === 'postgres') query = query.forUpdate('tasks').skipLocked();
    return query.execute();
  }

  /**
   * Moves claimed tasks' due times on, in the claim's transaction: one
   * statement for the whole claim. Each is guarded by the due time it was
   * claimed at: a change the owner made meanwhile (SQLite has no row lock to
   * wait on) is not overwritten.
   */
  async advance(
    moves: Array<{ taskId: string; claimedDueAt: string; nextDueAt: string | null }>,
    transaction: Executor,
  ): Promise<void> {
    if (moves.length === 0) return;
    await transaction
      .updateTable('tasks')
      .set((eb) => {
        let choice = eb.case();
        let chosen;
        for (const move of moves) {
          chosen = (chosen ?? choice)
            .when(eb.and([eb('id', '=', move.taskId), eb('next_due_at', '=', move.claimedDueAt)]))
            .then(move.nextDueAt);
        }
        return { next_due_at: chosen!.else(eb.ref('next_due_at')).end() };
      })
      .where(
        'id',
        'in',
        moves.map((move) => move.taskId),
      )
      .execute();
  }

  /**
   * Records how a run of the task ended: its status, the failures in a row,
   * and the pause when they reach `pauseAfter` (the task is disabled, with a
   * reason). Returns the task as it is now, and whether this outcome paused
   * it; null when the task is gone.
   */
  async recordOutcome(
    taskId: string,
    outcome: TaskRunOutcome,
    transaction: Executor,
  ): Promise<{ task: TaskRow; paused: boolean } | null> {
    let query = transaction.selectFrom('tasks').selectAll().where('id', '=', taskId);
    if (this.dialect === 'postgres') query = query.forUpdate();
    const current = await query.executeTakeFirst();
    if (current === undefined) return null;
    const failures = outcome.failed
      ? current.consecutive_failures + 1
      : outcome.status === 'completed'
        ? 0
        : current.consecutive_failures;
    const paused = outcome.failed && failures >= outcome.pauseAfter && current.enabled === 1;
    const changes: Partial<TaskRow> = {
      last_run_id: outcome.runId,
      last_run_at: outcome.at,
      last_run_status: outcome.status,
      last_error: outcome.error,
      consecutive_failures: failures,
      ...(paused ? { enabled: 0, paused_reason: outcome.pauseReason(failures), next_due_at: null } : {}),
    };
    await transaction.updateTable('tasks').set(changes).where('id', '=', taskId).execute();
    return { task: { ...current, ...changes } as TaskRow, paused };
  }
}

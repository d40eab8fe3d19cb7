import type { Database, Executor } from '../schema.js';

export type EvalRow = Database['evals'];
export type EvalResultRow = Database['eval_results'];
/** A result without its replies: what totals and the comparison of versions read. */
export type EvalScoreRow = Omit<EvalResultRow, 'detail'>;

const unfinished = ['queued', 'running'] as const;

/** The columns of an eval but its copy of the cases (which may be large): what lists and views read. */
const summaryColumns = [
  'id',
  'account_id',
  'agent_id',
  'dataset_id',
  'dataset_name',
  'case_count',
  'versions',
  'judge',
  'concurrency',
  'status',
  'instance_id',
  'key_id',
  'error',
  'takeovers',
  'cancel_requested_at',
  'created_at',
  'started_at',
  'finished_at',
] as const;
export type EvalSummaryRow = Omit<EvalRow, 'cases'>;

/**
 * Eval runs and their results. An unfinished eval belongs to the instance
 * named by `instance_id` for as long as that instance's heartbeat (the runs'
 * `run_instances`) is fresh: the same claim runs have. Every read a client's
 * request makes names the account and the agent.
 */
export class EvalRepository {
  constructor(private readonly db: Executor) {}

  async insert(row: EvalRow, executor: Executor = this.db): Promise<void> {
    await executor.insertInto('evals').values(row).execute();
  }

  async find(
    accountId: string,
    agentId: string,
    id: string,
    executor: Executor = this.db,
  ): Promise<EvalSummaryRow | null> {
    return (
      (await executor
        .selectFrom('evals')
        .select(summaryColumns)
        .where('id', '=', id)
        .where('agent_id', '=', agentId)
        .where('account_id', '=', accountId)
        .executeTakeFirst()) ?? null
    );
  }

  /** The whole row, with the copy of the cases: what the instance running it reads. */
  async findById(id: string, executor: Executor = this.db): Promise<EvalRow | null> {
    return (await executor.selectFrom('evals').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** Newest first; `before`: evals made before this id. */
  async page(
    query: { accountId: string; agentId: string; limit: number; before?: string },
    executor: Executor = this.db,
  ): Promise<EvalSummaryRow[]> {
    let builder = executor
      .selectFrom('evals')
      .select(summaryColumns)
      .where('agent_id', '=', query.agentId)
      .where('account_id', '=', query.accountId);
    if (query.before !== undefined) builder = builder.where('id', '<', query.before);
    return builder.orderBy('id', 'desc').limit(query.limit).execute();
  }

  /**
   * Unfinished evals nobody runs: queued or running under an instance whose
   * heartbeat is older than `staleBefore` (or gone), or under none.
   */
  async claimable(staleBefore: string, limit: number, executor: Executor = this.db): Promise<EvalSummaryRow[]> {
    return executor
      .selectFrom('evals')
      .select(summaryColumns)
      .where('status', 'in', unfinished)
      .where((where) =>
        where.or([
          where('instance_id', 'is', null),
          where(
            'instance_id',
            'not in',
            where.selectFrom('run_instances').select('instance_id').where('seen_at', '>=', staleBefore),
          ),
        ]),
      )
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Takes an unfinished eval for `toInstance` from `fromInstance` (its owner
   * as read): one claim, whichever instance asks first. A claim from another
   * instance counts as a takeover. Null when it was taken or ended meanwhile.
   */
  async claim(
    id: string,
    fromInstance: string | null,
    toInstance: string,
    at: string,
    executor: Executor = this.db,
  ): Promise<EvalRow | null> {
    const takeover = fromInstance !== null && fromInstance !== toInstance;
    let update = executor
      .updateTable('evals')
      .set((set) => ({
        instance_id: toInstance,
        status: 'running',
        started_at: set.fn.coalesce('started_at', set.val(at)),
        ...(takeover ? { takeovers: set('takeovers', '+', 1) } : {}),
      }))
      .where('id', '=', id)
      .where('status', 'in', unfinished);
    update =
      fromInstance === null ? update.where('instance_id', 'is', null) : update.where('instance_id', '=', fromInstance);
    return (await update.returningAll().executeTakeFirst()) ?? null;
  }

  /** The eval's status now (null once it is gone with its agent). */
  async statusOf(id: string, executor: Executor = this.db): Promise<string | null> {
    const row = await executor.selectFrom('evals').select('status').where('id', '=', id).executeTakeFirst();
    return row?.status ?? null;
  }

  /** Ends an unfinished eval as cancelled, wherever it runs; the row after, or null when it had ended. */
  async cancel(
    accountId: string,
    agentId: string,
    id: string,
    at: string,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('evals')
      .set({ status: 'cancelled', cancel_requested_at: at, finished_at: at })
      .where('id', '=', id)
      .where('agent_id', '=', agentId)
      .where('account_id', '=', accountId)
      .where('status', 'in', unfinished)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Ends a running eval this instance holds; false when it is no longer its own or no longer running. */
  async finish(
    id: string,
    instanceId: string,
    end: { status: 'completed' | 'failed'; error: string | null; at: string },
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('evals')
      .set({ status: end.status, error: end.error, finished_at: end.at })
      .where('id', '=', id)
      .where('instance_id', '=', instanceId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Records one case's result for one version; a second result for the same pair is ignored. */
  async insertResult(row: EvalResultRow, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('eval_results')
      .values(row)
      .onConflict((conflict) => conflict.columns(['eval_id', 'case_id', 'version']).doNothing())
      .execute();
  }

  /** Every result's scores, without the replies, in dataset order. */
  async scores(evalId: string, executor: Executor = this.db): Promise<EvalScoreRow[]> {
    return executor
      .selectFrom('eval_results')
      .select(['eval_id', 'case_id', 'version', 'position', 'status', 'passed', 'scores', 'created_at'])
      .where('eval_id', '=', evalId)
      .orderBy('position')
      .orderBy('version')
      .execute();
  }

  /** The results with their replies of these cases. */
  async details(evalId: string, caseIds: readonly string[], executor: Executor = this.db): Promise<EvalResultRow[]> {
    if (caseIds.length === 0) return [];
    return executor
      .selectFrom('eval_results')
      .selectAll()
      .where('eval_id', '=', evalId)
      .where('case_id', 'in', caseIds)
      .execute();
  }

  /** How many results each of these evals has: their progress. */
  async resultCounts(evalIds: readonly string[], executor: Executor = this.db): Promise<Map<string, number>> {
    if (evalIds.length === 0) return new Map();
    const rows = await executor
      .selectFrom('eval_results')
      .select((select) => ['eval_id', select.fn.countAll<number | string>().as('count')])
      .where('eval_id', 'in', evalIds)
      .groupBy('eval_id')
      .execute();
    return new Map(rows.map((row) => [row.eval_id, Number(row.count)]));
  }

  /** Removes every eval of a deleted agent, with its results. */
  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<void> {
    await executor
      .deleteFrom('eval_results')
      .where('eval_id', 'in', (select) => select.selectFrom('evals').select('id').where('agent_id', '=', agentId))
      .execute();
    await executor.deleteFrom('evals').where('agent_id', '=', agentId).execute();
  }
}

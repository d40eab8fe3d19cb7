import { sql, type InsertResult, type Insertable, type Selectable, type UpdateResult } from 'kysely';
import { PreparedQuery } from '../prepared-query.js';
import type { Database, Dialect, Executor } from '../schema.js';

export type RunRow = Selectable<Database['runs']>;
export type NewRunRow = Insertable<Database['runs']>;

/** One stored batch of a run's events: consecutive sequence numbers, oldest first. */
export interface RunEventBatch {
  firstSeq: number;
  lastSeq: number;
  /** JSON array of { event, data }. */
  events: string;
}

export interface RunPageQuery {
  accountId: string;
  agentId: string;
  status?: string;
  trigger?: string;
  taskId?: string;
  limit: number;
  /** Keyset position: runs strictly older than this id (newest first). */
  beforeId?: string;
}

export const unfinishedRunStatuses = ['queued', 'running'] as const;

/**
 * Runs, their events and the heartbeats of the instances producing them.
 * Every read names the account and the agent, so one account never sees
 * another's runs. Writes of a run's outcome take the caller's transaction:
 * the last events and the final state commit together, so a reader never sees
 * a finished run with events still missing.
 */
/** The columns a new run is written with (the others start null, or 0 for `event_count`). */
const insertedColumns = [
  'id',
  'account_id',
  'agent_id',
  'trigger',
  'task_id',
  'due_at',
  'status',
  'background',
  'user_id',
  'room_id',
  'input',
  'message_id',
  'instance_id',
  'event_count',
  'created_at',
  'started_at',
  'approval_id',
  'call_key',
] as const;

type AppendFields = { runId: string; firstSeq: number; lastSeq: number; events: string; createdAt: string };

/** A run's outcome as its row records it when it ends. */
export type RunFinish = {
  status: string;
  finishReason: string | null;
  usage: string | null;
  result: string | null;
  error: string | null;
  eventCount: number;
  finishedAt: string;
};

export class RunRepository {
  // The writes every reply makes (its run's start and end), compiled once: the query builder stays off the reply's path.
  readonly #insert: PreparedQuery<Record<(typeof insertedColumns)[number], unknown>, InsertResult>;
  readonly #finish: PreparedQuery<RunFinish & { runId: string }, UpdateResult>;
  readonly #appendOne: PreparedQuery<AppendFields, InsertResult>;
  readonly #appendMany: PreparedQuery<{ batches: string; createdAt: string }, InsertResult>;

  constructor(
    private readonly db: Executor,
    dialect: Dialect,
    /** See `DatabaseHandle.relaxedDb`. */
    private readonly relaxedDb: Executor = db,
  ) {
    this.#insert = new PreparedQuery((parameter) =>
      db
        .insertInto('runs')
        .values(Object.fromEntries(insertedColumns.map((column) => [column, parameter(column)])) as NewRunRow)
        .compile(),
    );
    this.#finish = new PreparedQuery((parameter) =>
      db
        .updateTable('runs')
        .set({
          status: parameter('status'),
          finish_reason: parameter('finishReason'),
          usage: parameter('usage'),
          result: parameter('result'),
          error: parameter('error'),
          event_count: parameter('eventCount'),
          finished_at: parameter('finishedAt'),
        })
        .where('id', '=', parameter('runId'))
        .where('status', 'in', unfinishedRunStatuses)
        .compile(),
    );
    // The batches of several runs as one JSON array of [runId, firstSeq, lastSeq, events]: one statement whose text
    // never changes, where a multi-row insert would be built and compiled again for each number of runs.
    this.#appendMany = new PreparedQuery((parameter) =>
      (dialect === 'postgres'
        ? sql<InsertResult>`insert into run_events (run_id, first_seq, last_seq, events, created_at)
            select batch ->> 0, (batch ->> 1)::integer, (batch ->> 2)::integer, batch ->> 3, ${parameter('createdAt')}
            from json_array_elements(${parameter('batches')}::json) as batch`
        : sql<InsertResult>`insert into run_events (run_id, first_seq, last_seq, events, created_at)
            select value ->> 0, value ->> 1, value ->> 2, value ->> 3, ${parameter('createdAt')}
            from json_each(${parameter('batches')})`
      ).compile(db),
    );
    this.#appendOne = new PreparedQuery((parameter) =>
      db
        .insertInto('run_events')
        .values({
          run_id: parameter('runId'),
          first_seq: parameter('firstSeq'),
          last_seq: parameter('lastSeq'),
          events: parameter('events'),
          created_at: parameter('createdAt'),
        })
        .compile(),
    );
  }

  /**
   * The row of a run that begins running now (a foreground reply's): its commit
   * does not wait for durability, which the run's end (always written later,
   * durably) brings, so a reply does not wait for two flushes of the log.
   */
  async insertRunning(row: NewRunRow): Promise<void> {
    await this.insert(row, this.relaxedDb);
  }

  async insert(row: NewRunRow, executor: Executor = this.db): Promise<void> {
    const values = Object.fromEntries(
      insertedColumns.map((column) => [column, (row as Record<string, unknown>)[column] ?? null]),
    ) as Record<(typeof insertedColumns)[number], unknown>;
    values.event_count = row.event_count ?? 0;
    await this.#insert.run(executor, values);
  }

  async find(accountId: string, agentId: string, runId: string, executor: Executor = this.db) {
    return executor
      .selectFrom('runs')
      .selectAll()
      .where('id', '=', runId)
      .where('agent_id', '=', agentId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async findById(runId: string, executor: Executor = this.db): Promise<RunRow | undefined> {
    return executor.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
  }

  async page(query: RunPageQuery, executor: Executor = this.db): Promise<RunRow[]> {
    let builder = executor
      .selectFrom('runs')
      .selectAll()
      .where('agent_id', '=', query.agentId)
      .where('account_id', '=', query.accountId);
    if (query.status !== undefined) builder = builder.where('status', '=', query.status);
    if (query.trigger !== undefined) builder = builder.where('trigger', '=', query.trigger);
    if (query.taskId !== undefined) builder = builder.where('task_id', '=', query.taskId);
    if (query.beforeId !== undefined) builder = builder.where('id', '<', query.beforeId);
    return builder.orderBy('id', 'desc').limit(query.limit).execute();
  }

  /** A waiting run whose approvals are all decided becomes completed; false when it was not waiting. */
  async settleWaiting(runId: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('runs')
      .set({ status: 'completed' })
      .where('id', '=', runId)
      .where('status', '=', 'waiting')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Marks a queued run as running on `instanceId`; false when it was no longer
   * queued (cancelled meanwhile). Committed as `insertRunning` is, without
   * waiting for durability: the run's end, written durably later, makes it
   * durable, and should the server lose it the run is queued on this instance,
   * which the sweep ends as it would the running one.
   */
  async start(
    runId: string,
    fields: { instanceId: string; messageId: string; startedAt: string },
    executor: Executor = this.relaxedDb,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('runs')
      .set({
        status: 'running',
        instance_id: fields.instanceId,
        message_id: fields.messageId,
        started_at: fields.startedAt,
      })
      .where('id', '=', runId)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records the outcome of a run that has not ended yet; false when it had (another instance ended it). */
  async finish(runId: string, fields: RunFinish, executor: Executor = this.db): Promise<boolean> {
    return (await this.#finish.run(executor, { ...fields, runId })) === 1;
  }

  /** Stores batches of events (of one run or several) in one statement. */
  async appendEvents(
    batches: (RunEventBatch & { runId: string })[],
    createdAt: string,
    executor: Executor = this.db,
  ): Promise<void> {
    if (batches.length === 0) return;
    if (batches.length === 1) {
      await this.#appendOne.run(executor, { ...(batches[0] as RunEventBatch & { runId: string }), createdAt });
      return;
    }
    const rows = JSON.stringify(batches.map((batch) => [batch.runId, batch.firstSeq, batch.lastSeq, batch.events]));
    await this.#appendMany.run(executor, { batches: rows, createdAt });
  }

  /** The sequence number of the last stored event of a run (0: none). */
  async lastSeq(runId: string, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('run_events')
      .select((select) => select.fn.max('last_seq').as('last'))
      .where('run_id', '=', runId)
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /** The stored batches holding events after `afterSeq`, oldest first. */
  async eventsAfter(runId: string, afterSeq: number, executor: Executor = this.db): Promise<RunEventBatch[]> {
    const rows = await executor
      .selectFrom('run_events')
      .select(['first_seq', 'last_seq', 'events'])
      .where('run_id', '=', runId)
      .where('last_seq', '>', afterSeq)
      .orderBy('first_seq')
      .execute();
    return rows.map((row) => ({ firstSeq: row.first_seq, lastSeq: row.last_seq, events: row.events }));
  }

  /**
   * Up to `limit` unfinished runs of the account started under `callKey` (an
   * MCP call, see src/services/mcp/mcp-calls.ts), by the partial index
   * `runs_call_key_idx`: only runs with a key are in it.
   */
  async unfinishedByCallKey(
    accountId: string,
    callKey: string,
    limit: number,
    executor: Executor = this.db,
  ): Promise<RunRow[]> {
    return executor
      .selectFrom('runs')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('call_key', '=', callKey)
      .where('status', 'in', unfinishedRunStatuses)
      .limit(limit)
      .execute();
  }

  /** Asks for a run to end; the instance producing it sees the request. False when it had already ended. */
  async requestCancel(runId: string, at: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('runs')
      .set({ cancel_requested_at: at })
      .where('id', '=', runId)
      .where('status', 'in', unfinishedRunStatuses)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The unfinished runs `instanceId` produces that someone asked to cancel (an index lookup; migration 0024). */
  async cancelRequested(instanceId: string, executor: Executor = this.db): Promise<string[]> {
    const rows = await executor
      .selectFrom('runs')
      .select('id')
      .where('instance_id', '=', instanceId)
      .where('cancel_requested_at', 'is not', null)
      .where('status', 'in', unfinishedRunStatuses)
      .execute();
    return rows.map((row) => row.id);
  }

  async heartbeat(instanceId: string, at: string, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('run_instances')
      .values({ instance_id: instanceId, seen_at: at })
      .onConflict((conflict) => conflict.column('instance_id').doUpdateSet({ seen_at: at }))
      .execute();
  }

  async forgetInstance(instanceId: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('run_instances').where('instance_id', '=', instanceId).execute();
  }

  /**
   * Unfinished runs whose instance has not beaten since `staleBefore` (or,
   * running, name none): their producer stopped, so nobody will end them but
   * the sweep. A queued run names the instance that will produce it.
   *
   * Read by instance, not by run: the instances that hold unfinished runs are
   * found with one index seek each (a loose scan of `runs_unfinished_idx`),
   * and only a stopped one's runs are read. Every instance runs this at every
   * heartbeat, and one holding 10,000 open streams holds 10,000 running runs.
   */
  async orphaned(staleBefore: string, limit: number, executor: Executor = this.db): Promise<RunRow[]> {
    const found = await executor
      .selectFrom('runs')
      .selectAll()
      .where('status', '=', 'running')
      .where('instance_id', 'is', null)
      .limit(limit)
      .execute();
    const alive = new Set(
      (
        await executor.selectFrom('run_instances').select('instance_id').where('seen_at', '>=', staleBefore).execute()
      ).map((row) => row.instance_id),
    );
    for (const status of unfinishedRunStatuses) {
      let after: string | null = null;
      while (found.length < limit) {
        let next = executor
          .selectFrom('runs')
          .select('instance_id')
          .where('status', '=', status)
          .where('instance_id', 'is not', null);
        if (after !== null) next = next.where('instance_id', '>', after);
        const row = await next.orderBy('instance_id').limit(1).executeTakeFirst();
        if (row?.instance_id == null) break;
        after = row.instance_id;
        if (alive.has(after)) continue;
        found.push(
          ...(await executor
            .selectFrom('runs')
            .selectAll()
            .where('status', '=', status)
            .where('instance_id', '=', after)
            .limit(limit - found.length)
            .execute()),
        );
      }
    }
    return found;
  }

  /** Removes every run of a deleted agent, with its events. */
  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<void> {
    await executor
      .deleteFrom('run_events')
      .where('run_id', 'in', (select) => select.selectFrom('runs').select('id').where('agent_id', '=', agentId))
      .execute();
    await executor.deleteFrom('runs').where('agent_id', '=', agentId).execute();
  }

  /** Removes the events of runs older than the retention, and instances long gone. */
  async prune(eventsBefore: string, instancesBefore: string, executor: Executor = this.db): Promise<number> {
    const result = await executor.deleteFrom('run_events').where('created_at', '<', eventsBefore).executeTakeFirst();
    await executor.deleteFrom('run_instances').where('seen_at', '<', instancesBefore).execute();
    return Number(result.numDeletedRows);
  }
}

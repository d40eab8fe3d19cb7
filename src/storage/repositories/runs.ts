import { sql, type InsertResult, type Insertable, type Selectable, type UpdateResult } from 'kysely';
import { PreparedQuery } from '../prepared-query.js';
import { inTransaction, type Database, type Dialect, type Executor } from '../schema.js';
import type { ApprovalRepository } from './approvals.js';
import type { MessageRepository, MessageRow } from './messages.js';
import { PostgresRunWrites } from './runs-postgres.js';
import { SqliteRunWrites } from './runs-sqlite.js';
import type { WebhookRepository } from './webhooks.js';

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
  /** Absent: the runs of every agent of the account. */
  agentId?: string;
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
  'request',
  'agent_version',
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

/** A run written queued, produced later by the instance it names (a background message, a task, a resumed reply). */
export interface QueuedRun {
  id: string;
  accountId: string;
  agentId: string;
  trigger: string;
  taskId: string | null;
  userId: string | null;
  roomId: string | null;
  input: string;
  /** The instance that will produce it: should it stop before the run begins, the sweep ends the run. */
  instanceId: string;
  createdAt: string;
  /** For `approval` runs: the decision that resumed the reply. */
  approvalId: string | null;
  /** JSON: what the run was asked beyond its text ({ context }); none when nothing was. */
  request?: string | null;
}

/** A run row a task's claim writes: the due time's run, or a missed due time recorded as skipped. */
export interface DueRunRow {
  id: string;
  accountId: string;
  agentId: string;
  taskId: string;
  dueAt: string;
  status: 'queued' | 'skipped';
  input: string;
  roomId: string;
  /** The instance that claimed it and will produce it (the sweep of a stopped instance's runs reads it). */
  instanceId: string;
  createdAt: string;
}

/** What a completed reply writes when it ends: its turns, its run's end with its last events. */
export interface CompletedReplyWrite {
  agentId: string;
  /** The exchange's turns, stored only if the agent still exists; none when the reply belongs to no conversation. */
  turns: MessageRow[];
  run: { runId: string; finish: RunFinish; events: RunEventBatch | null };
  /**
   * The webhook event the reply records: when the account has a webhook
   * subscribed to it, nothing is written (its deliveries take the outbox's
   * transaction) and the answer says so. Null when no event is recorded.
   */
  event: { accountId: string; type: string } | null;
}

export type CompletedReplyResult =
  /** `stored`: the turns were (their agent exists); `ended`: the run had not ended before. */
  | { written: true; stored: boolean; ended: boolean }
  /** The account has subscribers to the event: nothing was written. */
  | { written: false };

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

/** `decided`: false when the approval was no longer pending; `resumed`: the resumed run was written. */
export interface ApprovalDecisionResult {
  decided: boolean;
  resumed: boolean;
}

/**
 * The run store's writes that span other tables, one implementation per
 * dialect behind the same methods (runs-postgres.ts: one statement each;
 * runs-sqlite.ts: a transaction of ordinary statements).
 */
export interface RunDialectWrites {
  completeReply(write: CompletedReplyWrite): Promise<CompletedReplyResult>;
  decideApproval(decision: ApprovalDecision, transaction: Executor): Promise<ApprovalDecisionResult>;
}

/** The repositories whose rows a run's writes touch besides its own (a reply's turns, a decided approval). */
export interface RunStoreNeighbours {
  messages: MessageRepository;
  webhooks: WebhookRepository;
  approvals: ApprovalRepository;
}

/**
 * The run store: the one writer of `runs`. A run is created (`insert`,
 * `insertRunning`, `createQueued`, `insertDueRuns`, or with the decision that
 * resumes a paused reply, `decideApproval`), started (`start`), given its
 * events (`appendEvents`) and ended (`finish`, `completeReply`,
 * `failUnstarted`, `settleWaiting`, `requestCancel`) here and nowhere else.
 */
export class RunRepository {
  // The writes every reply makes (its run's start and end), compiled once: the query builder stays off the reply's path.
  readonly #insert: PreparedQuery<Record<(typeof insertedColumns)[number], unknown>, InsertResult>;
  readonly #finish: PreparedQuery<RunFinish & { runId: string }, UpdateResult>;
  readonly #appendOne: PreparedQuery<AppendFields, InsertResult>;
  readonly #appendMany: PreparedQuery<{ batches: string; createdAt: string }, InsertResult>;
  readonly #dialectWrites: RunDialectWrites;

  constructor(
    private readonly db: Executor,
    dialect: Dialect,
    /** See `DatabaseHandle.relaxedDb`. */
    private readonly relaxedDb: Executor,
    neighbours: RunStoreNeighbours,
  ) {
    this.#dialectWrites =
      dialect === 'postgres' ? new PostgresRunWrites(db) : new SqliteRunWrites(db, this, neighbours);
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

  /** Writes a queued run (see `QueuedRun`) and returns its row as stored. */
  async createQueued(run: QueuedRun, executor: Executor = this.db): Promise<RunRow> {
    const row: RunRow = {
      id: run.id,
      account_id: run.accountId,
      agent_id: run.agentId,
      trigger: run.trigger,
      task_id: run.taskId,
      due_at: null,
      status: 'queued',
      background: 1,
      user_id: run.userId,
      room_id: run.roomId,
      input: run.input,
      message_id: null,
      finish_reason: null,
      usage: null,
      result: null,
      error: null,
      event_count: 0,
      instance_id: run.instanceId,
      cancel_requested_at: null,
      created_at: run.createdAt,
      started_at: null,
      finished_at: null,
      approval_id: run.approvalId,
      call_key: null,
      request: run.request ?? null,
      takeovers: 0,
      agent_version: null,
    };
    await this.insert(row, executor);
    return row;
  }

  /**
   * Writes the runs of a task claim, in one statement (per 500). A due time
   * already claimed (the unique `(task_id, due_at)` of runs) is left as it
   * is: the ids returned are of the runs this call inserted, so only they
   * are produced.
   */
  async insertDueRuns(runs: DueRunRow[], transaction: Executor): Promise<string[]> {
    const inserted: string[] = [];
    // Rows per statement: 15 parameters each stays far below both databases' limits on one statement's.
    for (let offset = 0; offset < runs.length; offset += 500) {
      inserted.push(...(await this.#insertDueRuns(runs.slice(offset, offset + 500), transaction)));
    }
    return inserted;
  }

  async #insertDueRuns(runs: DueRunRow[], transaction: Executor): Promise<string[]> {
    const inserted = await transaction
      .insertInto('runs')
      .values(
        runs.map((run) => ({
          id: run.id,
          account_id: run.accountId,
          agent_id: run.agentId,
          trigger: 'task',
          task_id: run.taskId,
          due_at: run.dueAt,
          status: run.status,
          background: 1,
          user_id: null,
          room_id: run.roomId,
          input: run.input,
          event_count: 0,
          instance_id: run.instanceId,
          created_at: run.createdAt,
          finished_at: run.status === 'skipped' ? run.createdAt : null,
        })),
      )
      .onConflict((conflict) => conflict.columns(['task_id', 'due_at']).doNothing())
      .returning('id')
      .execute();
    return inserted.map((row) => row.id);
  }

  /**
   * The end of a completed reply: its turns (if its agent still exists), its
   * run's end and its last events, in one commit; declined, writing nothing,
   * when the account has a webhook for the reply's event (the caller then
   * writes the deliveries with the rest in the outbox's transaction).
   * PostgreSQL: one statement, one round trip; SQLite: one transaction.
   */
  async completeReply(write: CompletedReplyWrite): Promise<CompletedReplyResult> {
    return this.#dialectWrites.completeReply(write);
  }

  /**
   * A decision on a pending approval, in the caller's transaction after
   * `ApprovalRepository.lockPausedRun` (which serialises the decisions of one
   * paused run): the decision and, when it leaves none of the run's
   * approvals pending, the claim of the resume, the waiting run settled
   * (`completed`) and the run that goes on with the reply written queued.
   * PostgreSQL: one statement; SQLite: the same writes one after the other.
   */
  async decideApproval(decision: ApprovalDecision, transaction: Executor): Promise<ApprovalDecisionResult> {
    return this.#dialectWrites.decideApproval(decision, transaction);
  }

  /**
   * Ends a run refused before it began (still queued): `failed`, with the
   * problem as its last event (`message.failed`) so that its event stream
   * ends like any other's, or `skipped` (a task's due time not run), with no
   * events. A run taken over from a stopped instance has events already: the
   * problem follows them. False when the run had already ended.
   */
  async failUnstarted(
    runId: string,
    ending: { status: 'failed' | 'skipped'; problem: unknown; at: string },
    executor: Executor = this.db,
  ): Promise<boolean> {
    const skipped = ending.status === 'skipped';
    return inTransaction(executor, async (transaction) => {
      const seq = (await this.lastSeq(runId, transaction)) + 1;
      const ended = await this.finish(
        runId,
        {
          status: ending.status,
          finishReason: null,
          usage: null,
          result: null,
          error: JSON.stringify(ending.problem),
          eventCount: skipped ? seq - 1 : seq,
          finishedAt: ending.at,
        },
        transaction,
      );
      if (!ended || skipped) return ended;
      const events = JSON.stringify([{ event: 'message.failed', data: { id: null, error: ending.problem } }]);
      await this.appendEvents([{ runId, firstSeq: seq, lastSeq: seq, events }], ending.at, transaction);
      return true;
    });
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
    let builder = executor.selectFrom('runs').selectAll().where('account_id', '=', query.accountId);
    if (query.agentId !== undefined) builder = builder.where('agent_id', '=', query.agentId);
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
    fields: { instanceId: string; messageId: string; startedAt: string; agentVersion?: number | null },
    executor: Executor = this.relaxedDb,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('runs')
      .set({
        status: 'running',
        instance_id: fields.instanceId,
        message_id: fields.messageId,
        started_at: fields.startedAt,
        ...(fields.agentVersion != null ? { agent_version: fields.agentVersion } : {}),
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

  /**
   * Takes over an unfinished run whose instance stopped (`orphaned`): it is
   * this instance's, queued again (its producer starts it, continuing from its
   * journal), counted in `takeovers`. Null when another instance took it first
   * or it ended meanwhile: one claim, whichever instance sweeps first.
   */
  async claimOrphan(
    runId: string,
    fromInstance: string | null,
    toInstance: string,
    executor: Executor = this.db,
  ): Promise<RunRow | null> {
    let update = executor
      .updateTable('runs')
      .set((set) => ({ instance_id: toInstance, status: 'queued', takeovers: set('takeovers', '+', 1) }))
      .where('id', '=', runId)
      .where('status', 'in', unfinishedRunStatuses);
    update =
      fromInstance === null ? update.where('instance_id', 'is', null) : update.where('instance_id', '=', fromInstance);
    return (await update.returningAll().executeTakeFirst()) ?? null;
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

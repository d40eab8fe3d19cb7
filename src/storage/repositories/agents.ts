import type { Expression, ExpressionBuilder, SelectQueryBuilder, SqlBool } from 'kysely';
import type { CommittedReader } from '../database.js';
import { PreparedQuery } from '../prepared-query.js';
import { inTransaction, type Database, type Dialect, type Executor } from '../schema.js';

/** A secret as stored: the sealed value and the mask shown to clients. */
export interface StoredSecret {
  sealed: string;
  mask: string;
}

export type StoredKnowledgeItem = string | { title?: string; content: string };

/** Everything of an agent that is not a column, kept as one JSON document. */
export interface AgentProfile {
  bio: string[];
  personality: { traits: string[]; style: string[]; tone: string | null };
  system: string | null;
  expertise: string[];
  knowledge: StoredKnowledgeItem[];
  goals: { objectives: string[]; motivations: string[] };
  platforms: Array<{
    type: string;
    enabled: boolean;
    settings: Record<string, unknown>;
    secrets: Record<string, StoredSecret>;
  }>;
  plugins: Array<{
    name: string;
    enabled: boolean;
    config: Record<string, unknown>;
    secrets: Record<string, StoredSecret>;
    /** Which of the entry's tools wait for a person's decision (absent: none). */
    approval?: { tools: string[] | '*'; expiresAfterSeconds?: number };
  }>;
  model: {
    provider: string;
    name: string;
    temperature?: number;
    maxOutputTokens?: number;
    topP?: number;
    /** Tool rounds per reply; the default applies when absent. */
    maxSteps?: number;
    apiKey?: StoredSecret;
  };
  metadata: Record<string, string>;
  /** Ids of the account's knowledge bases the agent retrieves from (absent on agents stored before they existed). */
  knowledgeBases?: string[];
  /** MCP settings; absent on agents stored before them (not exposed). */
  mcp?: { exposed: boolean };
  /** Spend limits; stored only when one is set (src/services/spend/). */
  limits?: { spend: Partial<Record<'tokensPerDay' | 'tokensPerMonth' | 'costPerDay' | 'costPerMonth', number>> };
  /** Long-term memory settings; agents stored before memory existed have none and use the defaults. */
  memory?: {
    summary: boolean;
    facts: boolean;
    recall: boolean;
    budgets: { historyTokens: number | null; summaryTokens: number; factsTokens: number; recallTokens: number };
    /** Absent on agents stored before memory work was scheduled: the defaults apply. */
    schedule?: { everyUserTurns: number; idleSeconds: number };
  };
}

export type AgentStatus = 'active' | 'inactive' | 'error';

export interface AgentRecord {
  id: string;
  accountId: string;
  name: string;
  status: AgentStatus;
  statusReason: string | null;
  deletionProtection: boolean;
  profile: AgentProfile;
  /** The configuration version (1 at create): the latest of the agent's versions (agent-versions.ts). */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export type AgentSortField = 'createdAt' | 'name' | 'status';
export type SortOrder = 'asc' | 'desc';

export interface AgentPageQuery {
  accountId: string;
  status?: AgentStatus;
  sortBy: AgentSortField;
  order: SortOrder;
  limit: number;
  offset?: number;
  /** Keyset position: rows strictly after this (sort key, id) in the requested order. */
  after?: { key: string; id: string };
}

const sortColumns = { createdAt: 'created_at', name: 'sort_name', status: 'status' } as const;

/** The key agents are ordered by for `sortBy=name`: case-insensitive, then by id. */
export function nameSortKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

export function sortKeyOf(record: AgentRecord, sortBy: AgentSortField): string {
  if (sortBy === 'name') return nameSortKey(record.name);
  return sortBy === 'status' ? record.status : record.createdAt;
}

type AgentRow = Database['agents'];

/** Rows kept to recognise an unchanged agent on its next read (a few pages of the busiest accounts). */
const recentRowLimit = 2000;

function sameRow(left: AgentRow, right: AgentRow): boolean {
  return (
    left.version === right.version &&
    left.updated_at === right.updated_at &&
    left.account_id === right.account_id &&
    left.name === right.name &&
    left.sort_name === right.sort_name &&
    left.status === right.status &&
    left.status_reason === right.status_reason &&
    left.deletion_protection === right.deletion_protection &&
    left.created_at === right.created_at &&
    left.profile === right.profile
  );
}

/** The values of a page statement; those its shape does not use are ignored. */
type PageParameters = {
  accountId: string;
  status: AgentStatus | null;
  afterKey: string | null;
  afterId: string | null;
  limit: number;
  offset: number | null;
};

function toRecord(row: AgentRow): AgentRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    status: row.status as AgentStatus,
    statusReason: row.status_reason,
    deletionProtection: row.deletion_protection === 1,
    profile: JSON.parse(row.profile) as AgentProfile,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(record: AgentRecord): AgentRow {
  return {
    id: record.id,
    account_id: record.accountId,
    name: record.name,
    sort_name: nameSortKey(record.name),
    status: record.status,
    status_reason: record.statusReason,
    deletion_protection: record.deletionProtection ? 1 : 0,
    profile: JSON.stringify(record.profile),
    version: record.version,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

/** Freezes a decoded record shared between requests, so that no caller can change it for the others. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export class AgentRepository {
  readonly #byId: PreparedQuery<{ accountId: string; agentId: string }, AgentRow>;
  /**
   * Decoded records by the row they came from: rows the committed-read cache
   * hands out again decode once (the profile's JSON is the costly part).
   */
  readonly #decoded = new WeakMap<AgentRow, AgentRecord>();
  readonly #countAll: PreparedQuery<{ accountId: string }, { agent_count: number | string }>;
  readonly #countByStatus: PreparedQuery<{ accountId: string; status: AgentStatus }, { agent_count: number | string }>;
  readonly #pageStatements = new Map<string, PreparedQuery<PageParameters, AgentRow>>();
  readonly #recentRows = new Map<string, { row: AgentRow; record: AgentRecord }>();

  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
    private readonly committedReader: CommittedReader | null = null,
  ) {
    this.#countAll = new PreparedQuery(
      (parameter) =>
        db.selectFrom('agent_counts').select('agent_count').where('account_id', '=', parameter('accountId')).compile(),
      committedReader,
    );
    this.#countByStatus = new PreparedQuery(
      (parameter) =>
        db
          .selectFrom('agent_counts')
          .select('agent_count')
          .where('account_id', '=', parameter('accountId'))
          .where('status', '=', parameter('status'))
          .compile(),
      committedReader,
    );
    this.#byId = new PreparedQuery(
      (parameter) =>
        db
          .selectFrom('agents')
          .selectAll()
          .where('id', '=', parameter('agentId'))
          .where('account_id', '=', parameter('accountId'))
          .compile(),
      committedReader,
    );
  }

  async insert(record: AgentRecord, executor: Executor = this.db): Promise<void> {
    await inTransaction(executor, async (transaction) => {
      await transaction.insertInto('agents').values(toRow(record)).execute();
      await this.adjustCount(record.accountId, record.status, 1, transaction);
    });
  }

  /**
   * Many agents in one transaction (imports, benchmark seeding): multi-row
   * inserts, and each account's counts adjusted once per status.
   */
  async insertMany(records: AgentRecord[], executor: Executor = this.db): Promise<void> {
    // 500 rows × 11 columns stays below the bound parameters both drivers accept in one statement.
    const rowsPerStatement = 500;
    await inTransaction(executor, async (transaction) => {
      for (let start = 0; start < records.length; start += rowsPerStatement) {
        await transaction
          .insertInto('agents')
          .values(records.slice(start, start + rowsPerStatement).map(toRow))
          .execute();
      }
      const counts = new Map<string, { accountId: string; status: string; count: number }>();
      for (const record of records) {
        const key = `${record.accountId}\u0000${record.status}`;
        const entry = counts.get(key) ?? { accountId: record.accountId, status: record.status, count: 0 };
        entry.count += 1;
        counts.set(key, entry);
      }
      for (const { accountId, status, count } of counts.values())
        await this.adjustCount(accountId, status, count, transaction);
    });
  }

  /**
   * One agent of the account as last committed, synchronously, where the
   * database can answer without waiting (SQLite's committed-read cache, with
   * its bounds); undefined where it cannot (PostgreSQL), null when there is none.
   */
  findNow(accountId: string, agentId: string): AgentRecord | null | undefined {
    const rows = this.#byId.readCommittedNow({ accountId, agentId });
    if (rows === undefined) return undefined;
    const [row] = rows;
    return row === undefined ? null : this.#sameAsBefore(row);
  }

  /**
   * One agent of the account. With `lock` inside a transaction, the row stays
   * locked until it ends (PostgreSQL; SQLite transactions are serial already).
   */
  async find(
    accountId: string,
    agentId: string,
    executor: Executor = this.db,
    lock = false,
  ): Promise<AgentRecord | null> {
    if (!lock || this.dialect !== 'postgres') {
      const [row] = await this.#byId.execute(executor, { accountId, agentId });
      if (row === undefined) return null;
      return this.#sameAsBefore(row);
    }
    const row = await executor
      .selectFrom('agents')
      .selectAll()
      .where('id', '=', agentId)
      .where('account_id', '=', accountId)
      .forUpdate()
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** The record of a row, decoded once per row object (the read cache hands rows out again) and shared frozen. */
  #shared(row: AgentRow): AgentRecord {
    let record = this.#decoded.get(row);
    if (record === undefined) {
      record = deepFreeze(toRecord(row));
      this.#decoded.set(row, record);
    }
    return record;
  }

  /**
   * Writes `next` if the stored version and status are still those of
   * `previous` (optimistic concurrency); false when another update came first.
   * `next.version` is `previous.version + 1` for a change of configuration,
   * the same for a status-only change.
   */
  async update(previous: AgentRecord, next: AgentRecord, executor: Executor = this.db): Promise<boolean> {
    return inTransaction(executor, async (transaction) => {
      const row = toRow(next);
      const result = await transaction
        .updateTable('agents')
        .set({
          name: row.name,
          sort_name: row.sort_name,
          status: row.status,
          status_reason: row.status_reason,
          deletion_protection: row.deletion_protection,
          profile: row.profile,
          version: row.version,
          updated_at: row.updated_at,
        })
        .where('id', '=', previous.id)
        .where('account_id', '=', previous.accountId)
        .where('version', '=', previous.version)
        .where('status', '=', previous.status)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      if (previous.status !== next.status) {
        await this.moveCount(previous.accountId, previous.status, next.status, transaction);
      }
      return true;
    });
  }

  /**
   * Sets the status the service decides (e.g. `error` after a provider
   * rejected the agent's credentials), with its reason and the counts, unless
   * the agent changed since `record` was read: then its owner has acted
   * meanwhile and their change stands. True when the status was written.
   * A status is not configuration, so the version stays; an owner's change
   * since the read shows in the version (configuration) or in the status and
   * its reason (a status-only PATCH), all three of which must be as read.
   */
  async setStatus(
    record: AgentRecord,
    status: AgentStatus,
    reason: string | null,
    updatedAt: string,
    executor: Executor = this.db,
  ): Promise<boolean> {
    return inTransaction(executor, async (transaction) => {
      const result = await transaction
        .updateTable('agents')
        .set({ status, status_reason: reason, updated_at: updatedAt })
        .where('id', '=', record.id)
        .where('account_id', '=', record.accountId)
        .where('version', '=', record.version)
        .where('status', '=', record.status)
        .where((eb) =>
          record.statusReason === null
            ? eb('status_reason', 'is', null)
            : eb('status_reason', '=', record.statusReason),
        )
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      if (record.status !== status) {
        await this.moveCount(record.accountId, record.status, status, transaction);
      }
      return true;
    });
  }

  async delete(record: AgentRecord, executor: Executor = this.db): Promise<boolean> {
    return inTransaction(executor, async (transaction) => {
      // The status comes from the deleted row itself, so the counts stay right even
      // if the status changed after `record` was read.
      const deleted = await transaction
        .deleteFrom('agents')
        .where('id', '=', record.id)
        .where('account_id', '=', record.accountId)
        .returning('status')
        .executeTakeFirst();
      if (deleted === undefined) return false;
      await this.adjustCount(record.accountId, deleted.status, -1, transaction);
      return true;
    });
  }

  /** Agents of the account, optionally with one status: read from the maintained counts, not counted. */
  /**
   * The model (`provider/name`) each of these agents of the account is set to
   * now; agents that no longer exist are absent. Reads the ids in chunks, so
   * the statement stays within every dialect's parameter limit.
   */
  async modelsOf(
    accountId: string,
    agentIds: readonly string[],
    executor: Executor = this.db,
  ): Promise<Map<string, string>> {
    const models = new Map<string, string>();
    const chunkSize = 500;
    for (let offset = 0; offset < agentIds.length; offset += chunkSize) {
      const rows = await executor
        .selectFrom('agents')
        .select(['id', 'profile'])
        .where('account_id', '=', accountId)
        .where('id', 'in', agentIds.slice(offset, offset + chunkSize))
        .execute();
      for (const row of rows) {
        const { model } = JSON.parse(row.profile) as Pick<AgentProfile, 'model'>;
        models.set(row.id, `${model.provider}/${model.name}`);
      }
    }
    return models;
  }

  async count(accountId: string, status?: AgentStatus, executor: Executor = this.db): Promise<number> {
    const rows = status
      ? await this.#countByStatus.execute(executor, { accountId, status })
      : await this.#countAll.execute(executor, { accountId });
    let sum = 0;
    for (const row of rows) sum += Number(row.agent_count);
    return sum;
  }

  async page(query: AgentPageQuery, executor: Executor = this.db): Promise<AgentRecord[]> {
    const rows = await this.#pageStatement(query).execute(executor, {
      accountId: query.accountId,
      status: query.status ?? null,
      afterKey: query.after?.key ?? null,
      afterId: query.after?.id ?? null,
      limit: query.limit,
      offset: query.offset ?? null,
    });
    return rows.map((row) => this.#sameAsBefore(row));
  }

  /**
   * A row equal in every column to one decoded before gets that record again
   * (PostgreSQL hands out new row objects on every read): no JSON to decode,
   * and the view and its text built from the record are reused too. Equality
   * of every column, not the version alone, is what makes it the same agent,
   * so nothing needs invalidating.
   */
  #sameAsBefore(row: AgentRow): AgentRecord {
    if (this.committedReader !== null) return this.#shared(row);
    const known = this.#recentRows.get(row.id);
    if (known !== undefined && sameRow(known.row, row)) return known.record;
    const record = this.#shared(row);
    if (this.#recentRows.size >= recentRowLimit) this.#recentRows.clear();
    this.#recentRows.set(row.id, { row, record });
    return record;
  }

  /**
   * The page statement of a query's shape (sort, order, and whether it has a
   * status, a keyset position, an offset), compiled on first use: every page
   * after that runs without the query builder, and on SQLite from the
   * committed-read cache.
   */
  #pageStatement(query: AgentPageQuery): PreparedQuery<PageParameters, AgentRow> {
    const shape = `${query.sortBy} ${query.order} ${query.status ? 's' : ''}${query.after ? 'a' : ''}${query.offset ? 'o' : ''}`;
    let statement = this.#pageStatements.get(shape);
    if (statement === undefined) {
      statement = new PreparedQuery<PageParameters, AgentRow>(
        (parameter) =>
          this.pageQuery({
            accountId: parameter('accountId') as string,
            sortBy: query.sortBy,
            order: query.order,
            ...(query.status ? { status: parameter('status') as AgentStatus } : {}),
            ...(query.after
              ? { after: { key: parameter('afterKey') as string, id: parameter('afterId') as string } }
              : {}),
            limit: parameter('limit') as number,
            ...(query.offset ? { offset: parameter('offset') as number } : {}),
          }).compile(),
        this.committedReader,
      );
      this.#pageStatements.set(shape, statement);
    }
    return statement;
  }

  /** The statement behind `page` (public so that tests can check its query plan). */
  pageQuery(query: AgentPageQuery, executor: Executor = this.db) {
    const column = sortColumns[query.sortBy];
    const direction = query.order;
    const positioned = <Row>(builder: SelectQueryBuilder<Database, 'agents', Row>) => {
      let positionedBuilder = builder.where('account_id', '=', query.accountId);
      if (query.status) positionedBuilder = positionedBuilder.where('status', '=', query.status);
      if (query.after) {
        const after = query.after;
        const comparison = direction === 'asc' ? '>' : '<';
        positionedBuilder = positionedBuilder.where((eb: ExpressionBuilder<Database, 'agents'>): Expression<SqlBool> =>
          eb(eb.refTuple(column, 'id'), comparison, eb.tuple(after.key, after.id)),
        );
      }
      positionedBuilder = positionedBuilder.orderBy(column, direction).orderBy('id', direction).limit(query.limit);
      return query.offset ? positionedBuilder.offset(query.offset) : positionedBuilder;
    };
    if (!query.offset) return positioned(executor.selectFrom('agents').selectAll());
    // A page deep into the list by number: the skipped entries are stepped over in
    // the index alone (it holds the sort key and id: an index-only scan), and only
    // the rows of the page are read, by primary key. The subquery is what limits
    // the ids to the account.
    return executor
      .selectFrom('agents')
      .selectAll()
      .where('id', 'in', positioned(executor.selectFrom('agents').select('id')))
      .orderBy(column, direction)
      .orderBy('id', direction);
  }

  /**
   * One agent from status `from` to `to` in the account's counts. The two
   * count rows are always locked in the same (status) order: two transactions
   * moving agents in opposite directions would otherwise each hold the row
   * the other waits for, and PostgreSQL would abort one of them as a deadlock.
   */
  private async moveCount(accountId: string, from: string, to: string, executor: Executor): Promise<void> {
    const changes: Array<[string, number]> = [
      [from, -1],
      [to, 1],
    ];
    changes.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    for (const [status, delta] of changes) await this.adjustCount(accountId, status, delta, executor);
  }

  private async adjustCount(accountId: string, status: string, delta: number, executor: Executor): Promise<void> {
    await executor
      .insertInto('agent_counts')
      .values({ account_id: accountId, status, agent_count: delta })
      .onConflict((conflict) =>
        conflict.columns(['account_id', 'status']).doUpdateSet((eb) => ({
          agent_count: eb('agent_counts.agent_count', '+', eb.ref('excluded.agent_count')),
        })),
      )
      .execute();
  }
}

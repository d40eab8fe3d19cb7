import { sql, type ExpressionBuilder } from 'kysely';
import type { CommittedReader } from '../database.js';
import { PreparedQuery } from '../prepared-query.js';
import { inTransaction, type Database, type Dialect, type Executor } from '../schema.js';

export type MessageRow = Database['messages'];
const messageColumns = [
  'id',
  'agent_id',
  'conversation',
  'user_id',
  'room_id',
  'role',
  'text',
  'finish_reason',
  'usage',
  'model',
  'latency_ms',
  'tool',
  'attachments',
  'created_at',
] as const satisfies ReadonlyArray<keyof MessageRow>;

export type RecentTurn = Pick<MessageRow, 'id' | 'role' | 'user_id' | 'text' | 'tool'>;

/** Which turns of an agent a query is about (see services/messages/conversation.ts). */
export interface TurnFilter {
  conversation?: string;
  userId?: string;
}

export interface TurnPageQuery extends TurnFilter {
  agentId: string;
  limit: number;
  /** Keyset position: turns strictly older than this id. */
  beforeId?: string;
}

/** One conversation an agent knows, newest activity first (see knownConversations). */
export interface KnownConversationRow {
  /** `user:<userId>` or `room:<roomId>`. */
  conversation: string;
  turns: number;
  lastActiveAt: string;
}

/** Keyset position in the known conversations: strictly after this one. */
export interface KnownConversationsAfter {
  lastActiveAt: string;
  conversation: string;
}

/**
 * Stored conversation turns. Ids are ULIDs, so id order is creation order and
 * "newest first" is a descending index scan on (agent, conversation, id).
 */
export class MessageRepository {
  readonly #recent: PreparedQuery<{ agentId: string; conversation: string; limit: number }, RecentTurn>;

  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
    committedReader: CommittedReader | null = null,
  ) {
    this.#recent = new PreparedQuery(
      (parameter) =>
        db
          .selectFrom('messages')
          .select(['id', 'role', 'user_id', 'text', 'tool'])
          .where('agent_id', '=', parameter('agentId'))
          .where('conversation', '=', parameter('conversation'))
          .orderBy('id', 'desc')
          .limit(parameter('limit'))
          .compile(),
      committedReader,
    );
  }

  async insert(rows: MessageRow[], executor: Executor = this.db): Promise<void> {
    if (rows.length === 0) return;
    await executor.insertInto('messages').values(rows).execute();
  }

  /**
   * Stores the turns of one agent's exchange unless the agent is gone; false
   * then. A reply that finishes after its agent was deleted would otherwise
   * leave turns of no agent behind (messages have no foreign key to agents).
   * On PostgreSQL the agent's row is share-locked until the insert commits, so
   * a delete either ran before (nothing stored) or waits and removes the turns
   * with the agent; SQLite's transactions are serial already.
   */
  async insertForExistingAgent(agentId: string, rows: MessageRow[], executor: Executor = this.db): Promise<boolean> {
    return inTransaction(executor, async (transaction) => {
      let agent = transaction.selectFrom('agents').select('id').where('id', '=', agentId);
      if (this.dialect === 'postgres') agent = agent.forKeyShare();
      if ((await agent.executeTakeFirst()) === undefined) return false;
      await this.insert(rows, transaction);
      return true;
    });
  }

  /** The most recent turns of one conversation, newest first: what a prompt's history is cut from. */
  async recent(
    agentId: string,
    conversation: string,
    limit: number,
    executor: Executor = this.db,
  ): Promise<RecentTurn[]> {
    return this.#recent.execute(executor, { agentId, conversation, limit });
  }

  /**
   * Turns of one conversation after `afterId` (from the first when null) and
   * before `beforeId` (to the last when null), oldest first: what memory has
   * not yet folded into a summary or taken facts from.
   */
  async between(
    agentId: string,
    conversation: string,
    range: { afterId: string | null; beforeId: string | null; role?: 'user' },
    limit: number,
    executor: Executor = this.db,
  ): Promise<Array<Pick<MessageRow, 'id' | 'role' | 'user_id' | 'text'>>> {
    let builder = executor
      .selectFrom('messages')
      .select(['id', 'role', 'user_id', 'text'])
      .where('agent_id', '=', agentId)
      .where('conversation', '=', conversation);
    if (range.afterId !== null) builder = builder.where('id', '>', range.afterId);
    if (range.beforeId !== null) builder = builder.where('id', '<', range.beforeId);
    if (range.role !== undefined) builder = builder.where('role', '=', range.role);
    return builder.orderBy('id', 'asc').limit(limit).execute();
  }

  async exists(agentId: string, id: string, executor: Executor = this.db): Promise<boolean> {
    const row = await executor
      .selectFrom('messages')
      .select('id')
      .where('agent_id', '=', agentId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async page(query: TurnPageQuery, executor: Executor = this.db): Promise<MessageRow[]> {
    // Named columns, not `*`: on PostgreSQL the table also holds the recall index's vector (migration 0009).
    let builder = executor.selectFrom('messages').select(messageColumns).where('agent_id', '=', query.agentId);
    if (query.conversation !== undefined) builder = builder.where('conversation', '=', query.conversation);
    if (query.userId !== undefined) builder = builder.where('user_id', '=', query.userId);
    if (query.beforeId !== undefined) builder = builder.where('id', '<', query.beforeId);
    return builder.orderBy('id', 'desc').limit(query.limit).execute();
  }

  /**
   * Deletes the turns `filter` names. On PostgreSQL the turns are locked in id
   * order first, the order in which a writer of rows referring to turns (recall's
   * vectors, `MemoryVectorRepository.store`) locks them: a plain delete locks
   * them in whatever order it reads them, and against such a writer each could
   * hold a turn the other waits for, one of them then aborted as a deadlock.
   */
  async deleteTurns(agentId: string, filter: TurnFilter, executor: Executor = this.db): Promise<number> {
    const named = (eb: ExpressionBuilder<Database, 'messages'>) =>
      eb.and([
        eb('agent_id', '=', agentId),
        ...(filter.conversation === undefined ? [] : [eb('conversation', '=', filter.conversation)]),
        ...(filter.userId === undefined ? [] : [eb('user_id', '=', filter.userId)]),
      ]);
    const result = await executor
      .deleteFrom('messages')
      .where(
        this.dialect === 'postgres'
          ? (eb) => eb('id', 'in', eb.selectFrom('messages').select('id').where(named).orderBy('id').forUpdate())
          : named,
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<number> {
    return this.deleteTurns(agentId, {}, executor);
  }

  /**
   * The conversations of an agent with stored turns, and the users it keeps
   * facts about without one (their turns were forgotten, the facts kept), most
   * recently active first. Grouping reads the (agent, conversation, id) index
   * once per page: a dashboard's listing, not a prompt's hot path.
   */
  async knownConversations(
    agentId: string,
    page: { limit: number; after?: KnownConversationsAfter },
    executor: Executor = this.db,
  ): Promise<KnownConversationRow[]> {
    const after = page.after;
    const rows = await sql<{ conversation: string; turns: number | string; last_active_at: string }>`
      select conversation, sum(turns) as turns, max(last_active_at) as last_active_at
      from (
        select conversation, count(*) as turns, max(created_at) as last_active_at
        from messages
        where agent_id = ${agentId} and role <> 'tool'
        group by conversation
        union all
        select 'user:' || user_id as conversation, 0 as turns, max(updated_at) as last_active_at
        from memory_facts
        where agent_id = ${agentId}
        group by user_id
      ) as known
      group by conversation
      ${
        after === undefined
          ? sql``
          : sql`having max(last_active_at) < ${after.lastActiveAt}
              or (max(last_active_at) = ${after.lastActiveAt} and conversation < ${after.conversation})`
      }
      order by last_active_at desc, conversation desc
      limit ${page.limit}
    `.execute(executor);
    return rows.rows.map((row) => ({
      conversation: row.conversation,
      turns: Number(row.turns),
      lastActiveAt: row.last_active_at,
    }));
  }
}

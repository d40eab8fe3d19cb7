import { sql } from 'kysely';
import type { CommittedReader } from '../database.js';
import { PreparedQuery } from '../prepared-query.js';
import type { Database, Dialect, Executor } from '../schema.js';

export type MemoryConversationRow = Database['memory_conversations'];
export type MemoryFactRow = Database['memory_facts'];
export type PromptFactRow = Pick<MemoryFactRow, 'user_id' | 'subject' | 'statement' | 'updated_at'>;

/** A turn found by recall: an earlier message or answer of the same conversation. */
export interface RecalledTurnRow {
  id: string;
  role: 'user' | 'agent';
  user_id: string | null;
  text: string;
}

/** The most facts kept per (agent, user): the least recently confirmed go first beyond it. */
export const maxFactsPerUser = 1_000;

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;
const scopeToken = (agentId: string, conversation: string) =>
  Buffer.from(`${agentId} ${conversation}`, 'utf8').toString('hex').toUpperCase();

/**
 * Summaries, facts and the recall search (migration 0009). Queries every
 * prompt makes are prepared once; the rest are built per call.
 */
export class MemoryRepository {
  readonly #conversation: PreparedQuery<{ agentId: string; conversation: string }, MemoryConversationRow>;
  readonly #factsOfUser: PreparedQuery<{ agentId: string; userId: string }, MemoryFactRow>;
  readonly #promptFacts: PreparedQuery<{ agentId: string; userId: string }, PromptFactRow>;
  readonly #recall: PreparedQuery<
    { agentId: string; conversation: string; match: string; query: string; limit: number },
    RecalledTurnRow
  >;

  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
    committedReader: CommittedReader | null = null,
  ) {
    this.#conversation = new PreparedQuery(
      (parameter) =>
        db
          .selectFrom('memory_conversations')
          .selectAll()
          .where('agent_id', '=', parameter('agentId'))
          .where('conversation', '=', parameter('conversation'))
          .compile(),
      committedReader,
    );
    this.#factsOfUser = new PreparedQuery(
      (parameter) =>
        db
          .selectFrom('memory_facts')
          .selectAll()
          .where('agent_id', '=', parameter('agentId'))
          .where('user_id', '=', parameter('userId'))
          .orderBy('subject')
          .compile(),
      committedReader,
    );
    // What a prompt needs of each fact, no more: a user may have a thousand, read for every message.
    this.#promptFacts = new PreparedQuery(
      (parameter) =>
        db
          .selectFrom('memory_facts')
          .select(['user_id', 'subject', 'statement', 'updated_at'])
          .where('agent_id', '=', parameter('agentId'))
          .where('user_id', '=', parameter('userId'))
          .compile(),
      committedReader,
    );
    this.#recall = new PreparedQuery(
      (parameter) =>
        (dialect === 'sqlite'
          ? sql<RecalledTurnRow>`
              select turn.id, turn.role, turn.user_id, turn.text
              from message_search
              join messages as turn on turn.rowid = message_search.rowid
              where message_search match ${parameter('match')}
                and turn.agent_id = ${parameter('agentId')} and turn.conversation = ${parameter('conversation')}
              order by bm25(message_search, 0.0, 1.0), turn.id desc
              limit ${parameter('limit')}`
          : sql<RecalledTurnRow>`
              select id, role, user_id, text
              from messages
              where agent_id = ${parameter('agentId')} and conversation = ${parameter('conversation')}
                and search @@ to_tsquery('english', ${parameter('query')})
              order by ts_rank(search, to_tsquery('english', ${parameter('query')})) desc, id desc
              limit ${parameter('limit')}`
        ).compile(db),
      committedReader,
    );
  }

  async conversation(
    agentId: string,
    conversation: string,
    executor: Executor = this.db,
  ): Promise<MemoryConversationRow | null> {
    const [row] = await this.#conversation.execute(executor, { agentId, conversation });
    return row ?? null;
  }

  /**
   * Writes a conversation's memory if nobody else wrote it since it was read
   * (`expectedVersion`, null when it had no row): false when someone did, and
   * then nothing is written.
   */
  async saveConversation(
    row: Omit<MemoryConversationRow, 'version'>,
    expectedVersion: number | null,
    executor: Executor = this.db,
  ): Promise<boolean> {
    if (expectedVersion === null) {
      const result = await executor
        .insertInto('memory_conversations')
        .values({ ...row, version: 1 })
        .onConflict((conflict) => conflict.columns(['agent_id', 'conversation']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    }
    const result = await executor
      .updateTable('memory_conversations')
      .set({
        summary: row.summary,
        summarized_through: row.summarized_through,
        facts_through: row.facts_through,
        updated_at: row.updated_at,
        version: expectedVersion + 1,
      })
      .where('agent_id', '=', row.agent_id)
      .where('conversation', '=', row.conversation)
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteConversation(agentId: string, conversation: string, executor: Executor = this.db): Promise<number> {
    const result = await executor
      .deleteFrom('memory_conversations')
      .where('agent_id', '=', agentId)
      .where('conversation', '=', conversation)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async factsOfUser(agentId: string, userId: string, executor: Executor = this.db): Promise<MemoryFactRow[]> {
    return this.#factsOfUser.execute(executor, { agentId, userId });
  }

  /** The facts of the users present, as a prompt needs them. */
  async promptFacts(
    agentId: string,
    userIds: readonly string[],
    executor: Executor = this.db,
  ): Promise<PromptFactRow[]> {
    if (userIds.length === 0) return [];
    if (userIds.length === 1) return this.#promptFacts.execute(executor, { agentId, userId: userIds[0] as string });
    return executor
      .selectFrom('memory_facts')
      .select(['user_id', 'subject', 'statement', 'updated_at'])
      .where('agent_id', '=', agentId)
      .where('user_id', 'in', [...userIds])
      .orderBy('user_id')
      .orderBy('subject')
      .execute();
  }

  /** Inserts a fact, or replaces the statement of the user's fact on the same subject. */
  async upsertFact(fact: MemoryFactRow, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('memory_facts')
      .values(fact)
      .onConflict((conflict) =>
        conflict.columns(['agent_id', 'user_id', 'subject']).doUpdateSet({
          statement: fact.statement,
          source_message_id: fact.source_message_id,
          updated_at: fact.updated_at,
        }),
      )
      .execute();
  }

  async updateFact(
    agentId: string,
    userId: string,
    factId: string,
    change: Pick<MemoryFactRow, 'statement' | 'updated_at'>,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('memory_facts')
      .set({ statement: change.statement, updated_at: change.updated_at, source_message_id: null })
      .where('agent_id', '=', agentId)
      .where('user_id', '=', userId)
      .where('id', '=', factId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteFact(agentId: string, userId: string, factId: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .deleteFrom('memory_facts')
      .where('agent_id', '=', agentId)
      .where('user_id', '=', userId)
      .where('id', '=', factId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteFactsOfUser(agentId: string, userId: string, executor: Executor = this.db): Promise<number> {
    const result = await executor
      .deleteFrom('memory_facts')
      .where('agent_id', '=', agentId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Drops the user's least recently confirmed facts beyond `maxFactsPerUser`. */
  async pruneFacts(agentId: string, userId: string, executor: Executor = this.db): Promise<void> {
    const surplus = await executor
      .selectFrom('memory_facts')
      .select('id')
      .where('agent_id', '=', agentId)
      .where('user_id', '=', userId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .offset(maxFactsPerUser)
      .limit(1000)
      .execute();
    if (surplus.length === 0) return;
    await executor
      .deleteFrom('memory_facts')
      .where(
        'id',
        'in',
        surplus.map((row) => row.id),
      )
      .execute();
  }

  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('memory_conversations').where('agent_id', '=', agentId).execute();
    await executor.deleteFrom('memory_facts').where('agent_id', '=', agentId).execute();
  }

  /**
   * The conversation's turns best matching `terms` (plain words, see
   * conversation/knowledge-query.ts), best first: BM25 on SQLite, ts_rank
   * on PostgreSQL (term frequency: cover density, ts_rank_cd, cost about
   * twice as much per candidate, and a long conversation has thousands).
   */
  async recall(
    agentId: string,
    conversation: string,
    terms: readonly string[],
    limit: number,
    executor: Executor = this.db,
  ): Promise<RecalledTurnRow[]> {
    if (terms.length === 0) return [];
    return this.#recall.execute(executor, {
      agentId,
      conversation,
      // The scope token as the trigger of migration 0009 writes it: SQLite's hex() of the UTF-8 text.
      match: `scope : ${quoted(scopeToken(agentId, conversation))} AND text : (${terms.map(quoted).join(' OR ')})`,
      query: terms.join(' | '),
      limit,
    });
  }
}

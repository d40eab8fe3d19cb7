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

/** On PostgreSQL, the most recent turns each search term brings to recall's ranking. */
const recallHitsPerTerm = 200;

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
  /** The prompt-facts query of one user, by the number of search terms (prepared on first use). */
  readonly #promptFacts = new Map<number, PreparedQuery<Record<string, unknown>, PromptFactRow>>();
  readonly #committedReader: CommittedReader | null;
  /** SQLite's recall query, by the number of search terms (prepared on first use). */
  readonly #sqliteRecall = new Map<number, PreparedQuery<Record<string, unknown>, RecalledTurnRow>>();
  readonly #recall: PreparedQuery<
    { agentId: string; conversation: string; terms: string[]; limit: number },
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
    this.#committedReader = committedReader;
    this.#recall = new PreparedQuery(
      (parameter) =>
        // PostgreSQL's recall (SQLite's: #sqliteRecallQuery), ranked as `recall` says. The scope lexeme of
        // migration 0010 keeps the GIN index to this conversation. The agent/conversation comparison is a
        // recheck a typed look-alike of the lexeme cannot pass, written as one expression so that the planner
        // does not AND the GIN scan with the b-tree's every turn of the conversation.
        sql<RecalledTurnRow>`
              with terms as (
                select q.n, to_tsquery('simple', 's' || md5(${parameter('agentId')} || ' ' || ${parameter('conversation')}))
                  && plainto_tsquery('english', q.term) as query
                from unnest(${parameter('terms')}::text[]) with ordinality as q(term, n)
                where numnode(plainto_tsquery('english', q.term)) > 0
              ),
              hits as (
                select terms.n, hit.id
                from terms cross join lateral (
                  select id from messages
                  where search @@ terms.query
                    and agent_id || ' ' || conversation = ${parameter('agentId')} || ' ' || ${parameter('conversation')}
                  order by id desc
                  limit ${recallHitsPerTerm}
                ) as hit
              ),
              rarity as (select n, 1.0::float8 / count(*) as weight from hits group by n),
              best as (
                select hits.id, sum(rarity.weight) as score
                from hits join rarity using (n)
                group by hits.id
                order by score desc, hits.id desc
                limit ${parameter('limit')}
              )
              select turn.id, turn.role, turn.user_id, turn.text
              from best join messages as turn on turn.id = best.id
              order by best.score desc, turn.id desc`.compile(db),
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

  /**
   * The facts of the users present a prompt should consider (the caller ranks
   * them, see conversation/memory/memory-prompt.ts chooseFacts): those
   * containing words of the message (`terms`, plain lower-case words, see
   * conversation/knowledge-query.ts) and the most recently confirmed, about
   * `limit` of each kind, so that a user with a thousand facts costs a prompt
   * a few dozen rows, not a thousand. A fact that shares no word with the
   * message and is older than `limit` others could never win a place.
   */
  async promptFacts(
    agentId: string,
    userIds: readonly string[],
    query: { terms: readonly string[]; limit: number },
    executor: Executor = this.db,
  ): Promise<PromptFactRow[]> {
    if (userIds.length === 0 || query.limit <= 0) return [];
    const rows =
      userIds.length === 1
        ? await this.#promptFactsQuery(query.terms.length).execute(executor, {
            agentId,
            userId: userIds[0],
            limit: query.limit,
            ...Object.fromEntries(query.terms.map((term, index) => [`t${index}`, term])),
          })
        : await this.#factCandidates(agentId, [...userIds], query.terms, query.limit).execute();
    // A fact found by several lists once: (agent, user, subject) is unique.
    const seen = new Set<string>();
    return rows.filter((row) => {
      const key = `${row.user_id}\u0000${row.subject}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  #promptFactsQuery(termCount: number): PreparedQuery<Record<string, unknown>, PromptFactRow> {
    let prepared = this.#promptFacts.get(termCount);
    if (prepared === undefined) {
      prepared = new PreparedQuery<Record<string, unknown>, PromptFactRow>(
        (parameter) =>
          this.#factCandidates(
            parameter('agentId') as string,
            parameter('userId') as string,
            Array.from({ length: termCount }, (_, index) => parameter(`t${index}`) as string),
            parameter('limit') as number,
          ).compile(),
        this.#committedReader,
      );
      this.#promptFacts.set(termCount, prepared);
    }
    return prepared;
  }

  /**
   * SQLite's recall, ranked as PostgreSQL's (see `recall`): each term's
   * `recallHitsPerTerm` most recent matches (FTS5 walks its index by rowid,
   * newest first, and stops), each scoring one over the term's number of
   * hits. BM25 over every match cost a long conversation 3–4 ms a message.
   */
  #sqliteRecallQuery(termCount: number): PreparedQuery<Record<string, unknown>, RecalledTurnRow> {
    let prepared = this.#sqliteRecall.get(termCount);
    if (prepared === undefined) {
      prepared = new PreparedQuery<Record<string, unknown>, RecalledTurnRow>((parameter) => {
        const lists = Array.from(
          { length: termCount },
          (_, index) =>
            sql`select ${index} as n, rowid as rid from (
              select rowid from message_search where message_search match ${parameter(`m${index}`)}
              order by rowid desc limit ${recallHitsPerTerm})`,
        );
        return sql<RecalledTurnRow>`
          with hits as (${sql.join(lists, sql` union all `)}),
          rarity as (select n, 1.0 / count(*) as weight from hits group by n),
          best as (
            select rid, sum(weight) as score from hits join rarity using (n)
            group by rid order by score desc, rid desc limit ${parameter('limit')}
          )
          select turn.id, turn.role, turn.user_id, turn.text
          from best join messages as turn on turn.rowid = best.rid
          where turn.agent_id = ${parameter('agentId')} and turn.conversation = ${parameter('conversation')}
          order by best.score desc, turn.id desc`.compile(this.db);
      }, this.#committedReader);
      this.#sqliteRecall.set(termCount, prepared);
    }
    return prepared;
  }

  #factCandidates(agentId: string, users: string | string[], terms: readonly string[], limit: number) {
    const ofUsers = this.db
      .selectFrom('memory_facts')
      .select(['user_id', 'subject', 'statement', 'updated_at'])
      .where('agent_id', '=', agentId)
      .where('user_id', Array.isArray(users) ? 'in' : '=', users);
    if (this.dialect === 'sqlite') {
      // One pass over the user's facts, ranked by the words they share with the message, then by recency:
      // SQLite reads rows fast, and a scan per word (as below) cost it more than it saved.
      const text = sql`lower(subject || ' ' || statement)`;
      const score = sql.join(
        terms.map(
          (term) =>
            sql`case when instr(${text}, ${term}) > 0 then case when instr(subject, ${term}) > 0 then 3 else 1 end else 0 end`,
        ),
        sql` + `,
      );
      // Without words there is no score (and SQLite reads a constant in ORDER BY as a column number).
      return (terms.length === 0 ? ofUsers : ofUsers.orderBy(sql`${score}`, 'desc'))
        .orderBy('updated_at', 'desc')
        .limit(limit);
    }
    // PostgreSQL: a backward scan of the recency index per word, stopping at `limit` facts containing it (the
    // lower-cased text is kept by migration 0010), and one for the most recent of all. Ranking every fact in
    // SQL instead sorted a thousand rows with their texts on each read.
    const list = (term: string | null) =>
      this.db
        .selectFrom(
          (term === null ? ofUsers : ofUsers.where(sql<boolean>`strpos(search, ${term}) > 0`))
            .orderBy('updated_at', 'desc')
            .limit(limit)
            .as('listed'),
        )
        .selectAll();
    // `union all`, and the caller drops repeats: `union` compared every row's texts to find them.
    return terms.reduce((query, term) => query.unionAll(list(term)), list(null));
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
   * conversation/knowledge-query.ts), best first, the same on both
   * databases: each term's `recallHitsPerTerm` most recent matching turns,
   * a turn scoring the sum, over the terms it was found by, of one over that
   * term's number of hits (rarer words count more, as in BM25's IDF). Ranking
   * every match instead (BM25, ts_rank) cost a long conversation several
   * milliseconds a message.
   */
  async recall(
    agentId: string,
    conversation: string,
    terms: readonly string[],
    limit: number,
    executor: Executor = this.db,
  ): Promise<RecalledTurnRow[]> {
    if (terms.length === 0) return [];
    if (this.dialect === 'sqlite') {
      const scope = `scope : ${quoted(scopeToken(agentId, conversation))}`;
      return this.#sqliteRecallQuery(terms.length).execute(executor, {
        agentId,
        conversation,
        limit,
        // The scope token as the trigger of migration 0009 writes it: SQLite's hex() of the UTF-8 text.
        ...Object.fromEntries(terms.map((term, index) => [`m${index}`, `${scope} AND text : ${quoted(term)}`])),
      });
    }
    return this.#recall.execute(executor, {
      agentId,
      conversation,
      terms: [...terms],
      limit,
    });
  }
}

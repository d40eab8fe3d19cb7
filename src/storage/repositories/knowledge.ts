import { sql } from 'kysely';
import type { CommittedReader } from '../database.js';
import { PreparedQuery } from '../prepared-query.js';
import type { Dialect, Executor } from '../schema.js';
import type { StoredKnowledgeItem } from './agents.js';

/**
 * The full-text index over agents' knowledge. Rows are written identically on
 * both dialects; only the search differs: FTS5 with BM25 on SQLite, a tsvector
 * with ts_rank_cd on PostgreSQL. `terms` are plain words (letters and digits
 * only, see conversation/knowledge-query.ts), combined with OR: an item
 * matching more of them, and rarer ones, ranks higher.
 */
export class KnowledgeRepository {
  readonly #search: PreparedQuery<
    { agentId: string; match: string; query: string; limit: number },
    { position: number }
  >;

  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
    committedReader: CommittedReader | null = null,
  ) {
    this.#search = new PreparedQuery(
      (parameter) =>
        (dialect === 'sqlite'
          ? // The agent is a column of the FTS table, so the index itself narrows to this agent's rows.
            sql<{ position: number }>`
              select item.position
              from knowledge_search
              join knowledge_items as item on item.search_id = knowledge_search.rowid
              where knowledge_search match ${parameter('match')}
              order by bm25(knowledge_search, 0.0, 2.0, 1.0), item.position
              limit ${parameter('limit')}`
          : sql<{ position: number }>`
              select position
              from knowledge_items
              where agent_id = ${parameter('agentId')} and search @@ to_tsquery('english', ${parameter('query')})
              order by ts_rank_cd(search, to_tsquery('english', ${parameter('query')})) desc, position
              limit ${parameter('limit')}`
        ).compile(db),
      committedReader,
    );
  }

  /** Replaces the agent's indexed items with `items` (call in the transaction that writes the agent). */
  async replace(agentId: string, items: readonly StoredKnowledgeItem[], executor: Executor = this.db): Promise<void> {
    await this.deleteForAgent(agentId, executor);
    if (items.length === 0) return;
    await executor
      .insertInto('knowledge_items')
      .values(
        items.map((item, position) =>
          typeof item === 'string'
            ? { agent_id: agentId, position, title: null, content: item }
            : { agent_id: agentId, position, title: item.title ?? null, content: item.content },
        ),
      )
      .execute();
  }

  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('knowledge_items').where('agent_id', '=', agentId).execute();
  }

  /** Positions of the agent's best-matching items, best first. */
  async search(
    agentId: string,
    terms: readonly string[],
    limit: number,
    executor: Executor = this.db,
  ): Promise<number[]> {
    if (terms.length === 0) return [];
    const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;
    const rows = await this.#search.execute(executor, {
      agentId,
      match: `agent_id : ${quoted(agentId)} AND {title content} : (${terms.map(quoted).join(' OR ')})`,
      query: terms.join(' | '),
      limit,
    });
    return rows.map((row) => Number(row.position));
  }
}

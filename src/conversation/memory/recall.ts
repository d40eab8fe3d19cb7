import type { Repositories } from '../../storage/repositories/index.js';
import { searchTermsOf } from '../knowledge-query.js';
import type { RecalledTurn } from './memory-prompt.js';

/**
 * Where recall finds earlier turns. Full text today (FTS5 on SQLite, tsvector
 * on PostgreSQL); a vector source can sit behind the same interface once an
 * embedding provider exists, and a hybrid can merge both rankings.
 */
export interface RecallSource {
  recall(agentId: string, conversation: string, text: string, limit: number): Promise<RecalledTurn[]>;
}

/** The words of the message, matched against the conversation's turns, best ranked first. */
export function fullTextRecall(repositories: Repositories): RecallSource {
  return {
    async recall(agentId, conversation, text, limit) {
      const terms = searchTermsOf(text);
      if (terms.length === 0) return [];
      const rows = await repositories.memory.recall(agentId, conversation, terms, limit);
      return rows.map((row) => ({ id: row.id, role: row.role, userId: row.user_id, text: row.text }));
    },
  };
}

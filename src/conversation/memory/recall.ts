import type { Logger } from 'pino';
import type { EmbeddingAdapter } from '../../providers/embeddings.js';
import type { Repositories } from '../../storage/repositories/index.js';
import type { MemoryVectorRepository } from '../../storage/repositories/memory-vectors.js';
import { searchTermsOf } from '../knowledge-query.js';
import { queryVectorOf, type QueryVector } from '../query-vector.js';
import { fuseRankings, fusionCandidates } from '../rank-fusion.js';
import type { RecalledTurn } from './memory-prompt.js';

/**
 * Where recall finds earlier turns of one conversation: full text (FTS5 on
 * SQLite, tsvector on PostgreSQL), and with an embedding model also the
 * nearest turn vectors, the two rankings merged as knowledge-base retrieval
 * merges them.
 */
export interface RecallSource {
  /** `vector`: the message's embedding, when the prompt shares it with knowledge-base retrieval. */
  recall(
    agentId: string,
    conversation: string,
    text: string,
    limit: number,
    vector?: QueryVector,
  ): Promise<RecalledTurn[]>;
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

/**
 * Full text and nearest vectors (turns are embedded in the background, see
 * services/memory/embed-turns.ts), merged by reciprocal rank fusion: a turn
 * saying the same thing in other words is found too. When the message cannot
 * be embedded now, full text alone, with a warning, as knowledge retrieval
 * does. Without an embedding model, full text alone.
 */
export function recallSourceOf(
  repositories: Repositories,
  embeddings: EmbeddingAdapter | null,
  logger: Logger,
): RecallSource {
  const text = fullTextRecall(repositories);
  const vectors = repositories.memoryVectors;
  if (embeddings === null || vectors === null) return text;
  return {
    async recall(agentId, conversation, message, limit, vector) {
      const candidates = fusionCandidates(limit);
      const [byText, byVector] = await Promise.all([
        text.recall(agentId, conversation, message, candidates),
        nearestTurns(vectors, agentId, conversation, vector ?? queryVectorOf(embeddings, message), candidates, logger),
      ]);
      if (byVector === null) return byText.slice(0, limit);
      const turns = new Map([...byText, ...byVector].map((turn) => [turn.id, turn]));
      // Equal scores: the more recent turn (ids sort by creation).
      const ranked = fuseRankings([byText.map((turn) => turn.id), byVector.map((turn) => turn.id)], limit, (a, b) =>
        a < b ? 1 : a > b ? -1 : 0,
      );
      return ranked.map(({ key }) => turns.get(key) as RecalledTurn);
    },
  };
}

/** The conversation's turns nearest the message; null (full text alone) when it cannot be embedded now. */
async function nearestTurns(
  vectors: MemoryVectorRepository,
  agentId: string,
  conversation: string,
  vector: QueryVector,
  limit: number,
  logger: Logger,
): Promise<RecalledTurn[] | null> {
  try {
    const rows = await vectors.nearest(agentId, conversation, await vector(), limit);
    return rows.map((row) => ({ id: row.id, role: row.role, userId: row.user_id, text: row.text }));
  } catch (error) {
    logger.warn(
      { err: { message: (error as Error).message } },
      'memory recall fell back to full text: the message could not be embedded',
    );
    return null;
  }
}

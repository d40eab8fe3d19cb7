import type { Logger } from 'pino';
import type { EmbeddingAdapter } from '../providers/embeddings.js';
import type { KnowledgeBaseRepository, StoredChunk } from '../storage/repositories/knowledge-bases.js';
import { searchTermsOf } from './knowledge-query.js';
import { queryVectorOf, type QueryVector } from './query-vector.js';
import { fuseRankings, fusionCandidates } from './rank-fusion.js';

/**
 * Retrieval from knowledge bases: full text (BM25 on SQLite's FTS5, ts_rank_cd
 * on PostgreSQL) and, with an embedding model, nearest vectors, merged by
 * reciprocal rank fusion (see rank-fusion.ts, shared with memory recall).
 *
 * This is the one entry point for knowledge-base retrieval: the prompt and
 * the search endpoint use `search`.
 */
export type RetrievalMode = 'hybrid' | 'text' | 'vector';

export interface RetrievedChunk {
  knowledgeBaseId: string;
  documentId: string;
  chunkId: string;
  /** The chunk's place in its document, from 0. */
  position: number;
  /** The document's title. */
  title: string;
  heading: string | null;
  content: string;
  tokenCount: number;
  /** Reciprocal-rank-fusion score: higher is better; comparable within one search only. */
  score: number;
}

export interface RetrievalOptions {
  limit: number;
  /** Stop adding chunks once this many tokens are taken (the best chunk is always kept). */
  tokenBudget?: number;
  /** Default `hybrid`; `vector` and `hybrid` fall back to full text without an embedding model. */
  mode?: RetrievalMode;
  /** The query's embedding when the caller shares it with other searches (see query-vector.ts). */
  vector?: QueryVector;
}

export class KnowledgeRetrieval {
  constructor(
    private readonly repository: KnowledgeBaseRepository,
    private readonly embeddings: EmbeddingAdapter | null,
    private readonly logger: Logger,
  ) {}

  /** Whether vector search is available (an embedding model and its index). */
  get hybrid(): boolean {
    return this.embeddings !== null && this.repository.vectors !== null;
  }

  /** The embedding of `text`, computed once for every search given it; null without an embedding model. */
  queryVector(text: string): QueryVector | null {
    return this.embeddings === null ? null : queryVectorOf(this.embeddings, text);
  }

  /** The chunks of these bases (the caller has checked they are the account's) most relevant to `query`, best first. */
  async search(
    knowledgeBaseIds: readonly string[],
    query: string,
    options: RetrievalOptions,
  ): Promise<RetrievedChunk[]> {
    if (knowledgeBaseIds.length === 0 || options.limit <= 0) return [];
    const mode = options.mode ?? 'hybrid';
    const candidates = fusionCandidates(options.limit);
    const lists: number[][] = [];
    const [textIds, vectorIds] = await Promise.all([
      mode === 'vector' && this.hybrid
        ? Promise.resolve(null)
        : this.repository.searchText(knowledgeBaseIds, searchTermsOf(query), candidates),
      mode === 'text' || !this.hybrid
        ? Promise.resolve(null)
        : this.#nearest(knowledgeBaseIds, options.vector ?? queryVectorOf(this.embeddings!, query), candidates),
    ]);
    if (textIds) lists.push(textIds);
    if (vectorIds) lists.push(vectorIds);

    // Equal scores: the chunk indexed first.
    const ranked = fuseRankings(lists, options.limit, (a, b) => a - b);
    const chunks = await this.repository.chunksBySearchId(ranked.map(({ key }) => key));
    const results: RetrievedChunk[] = [];
    let tokens = 0;
    for (const { key: searchId, score } of ranked) {
      const chunk = chunks.get(searchId);
      // Deleted between the search and the read.
      if (chunk === undefined) continue;
      if (options.tokenBudget !== undefined && results.length > 0 && tokens + chunk.tokenCount > options.tokenBudget)
        break;
      tokens += chunk.tokenCount;
      results.push(viewOf(chunk, score));
    }
    return results;
  }

  /** Nearest chunks by vector; null (full text alone) when the query cannot be embedded now. */
  async #nearest(knowledgeBaseIds: readonly string[], vector: QueryVector, limit: number): Promise<number[] | null> {
    try {
      const matches = await this.repository.vectors!.search(knowledgeBaseIds, await vector(), limit);
      return matches.map((match) => match.key);
    } catch (error) {
      this.logger.warn(
        { err: { message: (error as Error).message } },
        'knowledge retrieval fell back to full text: the query could not be embedded',
      );
      return null;
    }
  }
}

function viewOf(chunk: StoredChunk, score: number): RetrievedChunk {
  return {
    knowledgeBaseId: chunk.knowledgeBaseId,
    documentId: chunk.documentId,
    chunkId: chunk.id,
    position: chunk.position,
    title: chunk.title,
    heading: chunk.heading,
    content: chunk.content,
    tokenCount: chunk.tokenCount,
    score,
  };
}

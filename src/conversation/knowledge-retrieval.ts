import type { Logger } from 'pino';
import type { EmbeddingAdapter } from '../providers/embeddings.js';
import type { KnowledgeBaseRepository, StoredChunk } from '../storage/repositories/knowledge-bases.js';
import { searchTermsOf } from './knowledge-query.js';

/**
 * Retrieval from knowledge bases: full text (BM25 on SQLite's FTS5, ts_rank_cd
 * on PostgreSQL) and, with an embedding model, nearest vectors, merged by
 * reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): each list
 * gives a chunk 1/(k + rank), the sums decide. Fusion needs no calibration
 * between BM25 scores and cosine distances, which are not comparable.
 *
 * This is the one entry point for retrieval: the prompt, the search endpoint
 * and, later, long-term memory recall use `search`.
 */
export type RetrievalMode = 'hybrid' | 'text' | 'vector';

export interface RetrievedChunk {
  knowledgeBaseId: string;
  documentId: string;
  chunkId: string;
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
}

/** The constant of reciprocal rank fusion; 60 is the value of the original paper and common practice. */
const fusionConstant = 60;
/** Candidates taken from each list before fusion, per result wanted. */
const candidatesPerResult = 4;
const minimumCandidates = 20;

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

  /** The chunks of these bases (the caller has checked they are the account's) most relevant to `query`, best first. */
  async search(
    knowledgeBaseIds: readonly string[],
    query: string,
    options: RetrievalOptions,
  ): Promise<RetrievedChunk[]> {
    if (knowledgeBaseIds.length === 0 || options.limit <= 0) return [];
    const mode = options.mode ?? 'hybrid';
    const candidates = Math.max(minimumCandidates, options.limit * candidatesPerResult);
    const lists: number[][] = [];
    const [textIds, vectorIds] = await Promise.all([
      mode === 'vector' && this.hybrid
        ? Promise.resolve(null)
        : this.repository.searchText(knowledgeBaseIds, searchTermsOf(query), candidates),
      mode === 'text' || !this.hybrid ? Promise.resolve(null) : this.#nearest(knowledgeBaseIds, query, candidates),
    ]);
    if (textIds) lists.push(textIds);
    if (vectorIds) lists.push(vectorIds);

    const scores = new Map<number, number>();
    for (const list of lists) {
      list.forEach((searchId, index) => {
        scores.set(searchId, (scores.get(searchId) ?? 0) + 1 / (fusionConstant + index + 1));
      });
    }
    const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, options.limit);
    const chunks = await this.repository.chunksBySearchId(ranked.map(([searchId]) => searchId));
    const results: RetrievedChunk[] = [];
    let tokens = 0;
    for (const [searchId, score] of ranked) {
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
  async #nearest(knowledgeBaseIds: readonly string[], query: string, limit: number): Promise<number[] | null> {
    try {
      const [vector] = await this.embeddings!.embed([query]);
      const matches = await this.repository.vectors!.search(knowledgeBaseIds, vector!, limit);
      return matches.map((match) => match.searchId);
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
    title: chunk.title,
    heading: chunk.heading,
    content: chunk.content,
    tokenCount: chunk.tokenCount,
    score,
  };
}

import type { EmbeddingAdapter } from '../providers/embeddings.js';

/**
 * The embedding of a message, computed on first use and shared: a prompt's
 * knowledge-base retrieval and its memory recall search with the same vector,
 * one embeddings call per message. A failure is shared too (each search then
 * falls back to full text).
 */
export type QueryVector = () => Promise<readonly number[]>;

export function queryVectorOf(embeddings: EmbeddingAdapter, text: string): QueryVector {
  let vector: Promise<readonly number[]> | null = null;
  return () => {
    vector ??= embeddings.embed([text]).then(([first]) => {
      if (first === undefined) throw new Error('The embedding model answered no vector');
      return first;
    });
    return vector;
  };
}

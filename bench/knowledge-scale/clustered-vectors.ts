/**
 * Vectors with neighbourhoods, the same on every run, and the exact answer to compare an index with.
 *
 * Uniform random vectors in hundreds of dimensions have no neighbourhoods (every point is almost equally far
 * from every other), so any approximate index scores a recall near zero on them and the exact answer itself is
 * noise. Embeddings of real text are clustered; these are too: 1,000 centres uniform in [-1, 1] per dimension,
 * each point a centre plus uniform noise of ±0.5 per dimension, normalized (cosine distance is what is searched).
 * Queries are drawn the same way, so each has true neighbours in the data.
 */
import { SeededRandom } from '../../test/durability/seeded-random.js';
export const dimensions = 384;
/** 1,000 clusters; `KNOWLEDGE_SCALE_CLUSTERS` changes it (fewer clusters: more rows per cluster at a size). */
export const clusters = Number(process.env.KNOWLEDGE_SCALE_CLUSTERS ?? 1000);
const noise = 0.5;

/** The seeded mulberry32 of the durability tests, as a function. */
function generator(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}

const centres = (() => {
  const random = generator(0xc0ffee);
  const values = new Float32Array(clusters * dimensions);
  for (let index = 0; index < values.length; index += 1) values[index] = random() * 2 - 1;
  return values;
})();

function pointNear(random: () => number): Float32Array {
  const centre = Math.floor(random() * clusters) * dimensions;
  const vector = new Float32Array(dimensions);
  let norm = 0;
  for (let index = 0; index < dimensions; index += 1) {
    const value = centres[centre + index]! + (random() * 2 - 1) * noise;
    vector[index] = value;
    norm += value * value;
  }
  norm = Math.sqrt(norm);
  for (let index = 0; index < dimensions; index += 1) vector[index]! /= norm;
  return vector;
}

/** Row `position` of the data set: the same vector whichever store asks, and in whatever order. */
export function rowVector(position: number): Float32Array {
  return pointNear(generator(position * 2 + 1));
}

/** Query `number`: drawn like the rows, from a seed no row uses. */
export function queryVector(number: number): Float32Array {
  return pointNear(generator(number * 2 + 2_000_000_001));
}

/** The pgvector text form of a vector. */
export const vectorText = (vector: Float32Array) => `[${Array.prototype.join.call(vector, ',')}]`;

/**
 * The exact top k of each query among the rows seen so far (rows are unit vectors: the largest dot product is
 * the smallest cosine distance). Fed row by row while a store is seeded, it answers for every prefix size.
 */
export class ExactNearest {
  readonly #queries: Float32Array[];
  readonly #best: Array<Array<{ position: number; similarity: number }>>;

  constructor(
    queries: Float32Array[],
    readonly k: number,
    /** Only rows this says yes to count (a knowledge-base filter). */
    readonly accepts: (position: number) => boolean = () => true,
  ) {
    this.#queries = queries;
    this.#best = queries.map(() => []);
  }

  add(position: number, vector: Float32Array): void {
    if (!this.accepts(position)) return;
    for (let query = 0; query < this.#queries.length; query += 1) {
      const target = this.#queries[query]!;
      let similarity = 0;
      for (let index = 0; index < dimensions; index += 1) similarity += target[index]! * vector[index]!;
      const best = this.#best[query]!;
      if (best.length === this.k && similarity <= best[best.length - 1]!.similarity) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.similarity < similarity) at -= 1;
      best.splice(at, 0, { position, similarity });
      if (best.length > this.k) best.pop();
    }
  }

  /** Positions of the exact top k of a query, nearest first. */
  answer(query: number): number[] {
    return this.#best[query]!.map((entry) => entry.position);
  }

  /** Recall@k of the positions each query got back (in query order). */
  recall(found: number[][]): number {
    let hits = 0;
    let wanted = 0;
    found.forEach((positions, query) => {
      const truth = new Set(this.answer(query));
      wanted += truth.size;
      for (const position of positions.slice(0, this.k)) if (truth.has(position)) hits += 1;
    });
    return wanted === 0 ? 1 : hits / wanted;
  }
}

export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

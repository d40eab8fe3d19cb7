/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): each
 * ranked list gives an item 1/(k + rank), the sums decide. It merges a
 * full-text ranking and a nearest-vector ranking without calibrating BM25
 * scores against cosine distances, which are not comparable. Knowledge-base
 * retrieval and memory recall both merge their lists here.
 */

/** The constant of reciprocal rank fusion; 60 is the value of the original paper and common practice. */
const fusionConstant = 60;
/** Candidates taken from each list before fusion, per result wanted. */
const candidatesPerResult = 4;
const minimumCandidates = 20;

/** How many items to take from each list for `limit` fused results. */
export function fusionCandidates(limit: number): number {
  return Math.max(minimumCandidates, limit * candidatesPerResult);
}

/**
 * The `limit` best items of the lists (each best first) with their fused
 * score, best first; `tieBreak` orders items of equal score.
 */
export function fuseRankings<Key>(
  lists: ReadonlyArray<readonly Key[]>,
  limit: number,
  tieBreak: (a: Key, b: Key) => number,
): Array<{ key: Key; score: number }> {
  const scores = new Map<Key, number>();
  for (const list of lists) {
    list.forEach((key, index) => {
      scores.set(key, (scores.get(key) ?? 0) + 1 / (fusionConstant + index + 1));
    });
  }
  return [...scores.entries()]
    .sort((a, b) => b[1] - a[1] || tieBreak(a[0], b[0]))
    .slice(0, limit)
    .map(([key, score]) => ({ key, score }));
}

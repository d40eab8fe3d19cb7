/** Bluesky's limit on one post's text, in graphemes (app.bsky.feed.post). */
export const blueskyPostLimit = 300;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const words = new Intl.Segmenter('en', { granularity: 'word' });

export function graphemeLength(text: string): number {
  let count = 0;
  for (const _ of graphemes.segment(text)) count += 1;
  return count;
}

/** Cuts `text` into pieces of at most `limit` graphemes, between words where it can, never inside a grapheme. */
function pack(text: string, limit: number): string[] {
  const parts: string[] = [];
  let current = '';
  let currentLength = 0;
  for (const { segment } of words.segment(text)) {
    const length = graphemeLength(segment);
    if (currentLength + length <= limit) {
      current += segment;
      currentLength += length;
      continue;
    }
    if (current.trim() !== '') parts.push(current.trim());
    current = '';
    currentLength = 0;
    if (length <= limit) {
      if (segment.trim() !== '') {
        current = segment;
        currentLength = length;
      }
      continue;
    }
    for (const { segment: grapheme } of graphemes.segment(segment)) {
      if (currentLength + 1 > limit) {
        parts.push(current);
        current = '';
        currentLength = 0;
      }
      current += grapheme;
      currentLength += 1;
    }
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

/**
 * A reply as Bluesky accepts it: one post when it fits, else a numbered
 * thread (` (1/3)` at the end of each part), each within `limit` graphemes.
 */
export function splitForBluesky(text: string, limit = blueskyPostLimit): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (graphemeLength(trimmed) <= limit) return [trimmed];
  let count = 9;
  for (;;) {
    const parts = pack(trimmed, limit - ` (${count}/${count})`.length);
    if (String(parts.length).length <= String(count).length) {
      return parts.map((part, index) => `${part} (${index + 1}/${parts.length})`);
    }
    count = 10 ** String(parts.length).length - 1;
  }
}

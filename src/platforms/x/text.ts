import { createRequire } from 'node:module';

interface ParsedPost {
  /** The length as X counts it: most CJK characters and emoji weigh 2, every URL 23. */
  weightedLength: number;
  valid: boolean;
}

// twitter-text is X's own counting library (CommonJS, without types). Loaded on the first count, not at
// start-up: with the core-js it brings, it is a few hundred modules a server without X never needs.
const require = createRequire(import.meta.url);
let twitterText: { parseTweet(text: string): ParsedPost } | undefined;

/** X's limit on one post for accounts without a subscription, in weighted characters. */
export const xPostLimit = 280;

export function weightedLength(text: string): number {
  twitterText ??= require('twitter-text') as { parseTweet(text: string): ParsedPost };
  return twitterText.parseTweet(text).weightedLength;
}

const words = (text: string) => text.split(/(?<=\s)/u);

/**
 * Cuts `text` into pieces of at most `limit` weighted characters each,
 * between words where it can, else between code points.
 */
function pack(text: string, limit: number): string[] {
  const parts: string[] = [];
  let current = '';
  const fits = (candidate: string) => weightedLength(candidate.trimEnd()) <= limit;
  for (const word of words(text)) {
    if (fits(current + word)) {
      current += word;
      continue;
    }
    if (current.trim() !== '') parts.push(current.trimEnd());
    current = '';
    if (fits(word)) {
      current = word;
      continue;
    }
    // A word longer than a post: cut between code points.
    for (const character of word) {
      if (!fits(current + character)) {
        parts.push(current);
        current = '';
      }
      current += character;
    }
  }
  if (current.trim() !== '') parts.push(current.trimEnd());
  return parts;
}

/**
 * A reply as X accepts it: one post when it fits, else a numbered thread
 * (` (1/3)` at the end of each part), each part within `limit` as X counts
 * (twitter-text's weighted length).
 */
export function splitForX(text: string, limit = xPostLimit): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (weightedLength(trimmed) <= limit) return [trimmed];
  // The suffix's width depends on how many parts there are: grow the guess until it holds.
  let count = 9;
  for (;;) {
    const suffixLength = ` (${count}/${count})`.length;
    const parts = pack(trimmed, limit - suffixLength);
    if (String(parts.length).length <= String(count).length) {
      return parts.map((part, index) => `${part} (${index + 1}/${parts.length})`);
    }
    count = 10 ** String(parts.length).length - 1;
  }
}

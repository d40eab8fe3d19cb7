import { estimateTokens } from '../tokens.js';
import { extractFacts } from './fact-patterns.js';

/**
 * The builtin model's summary: extractive, offline and deterministic. Each
 * folded user turn gives one line (its text up to a bound, with its speaker
 * in a room); when the lines outgrow the budget, the least informative go first —
 * statements about the user (a name, a place, a preference), then names and
 * numbers, are kept longest; between equals, the newer stays. The agent's
 * own answers are left out: they follow from what the users said, and the
 * builtin model's answers carry nothing new.
 */
export interface SummaryTurn {
  role: 'user' | 'agent';
  userId: string | null;
  text: string;
}

const maxLineCharacters = 240;

/** The turn on one line, cut at a bound: its opening carries most of what it says. */
function lineOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxLineCharacters ? `${flat.slice(0, maxLineCharacters - 1)}…` : flat;
}

function informationOf(line: string): number {
  let score = 0;
  if (extractFacts(line).length > 0) score += 4;
  // Capitalised words past the first (names, places) and numbers carry what is easy to forget.
  const words = line.split(' ').slice(2);
  score += Math.min(2, words.filter((word) => /^\p{Lu}/u.test(word)).length);
  if (/\d/.test(line)) score += 1;
  return score;
}

export function foldExtractive(
  previous: string,
  turns: readonly SummaryTurn[],
  shared: boolean,
  budgetTokens: number,
): string {
  const lines = previous === '' ? [] : previous.split('\n');
  for (const turn of turns) {
    if (turn.role !== 'user' || turn.text.trim() === '') continue;
    const speaker = shared && turn.userId !== null ? turn.userId : 'user';
    const line = `- ${speaker}: ${lineOf(turn.text)}`;
    if (!lines.includes(line)) lines.push(line);
  }
  const cost = (line: string) => estimateTokens(line) + 1;
  let total = lines.reduce((sum, line) => sum + cost(line), 0);
  if (total <= budgetTokens) return lines.join('\n');
  // Drop the least informative (the oldest among equals) until it fits.
  const order = lines
    .map((line, index) => ({ index, score: informationOf(line) }))
    .sort((left, right) => left.score - right.score || left.index - right.index);
  const dropped = new Set<number>();
  for (const { index } of order) {
    if (total <= budgetTokens) break;
    dropped.add(index);
    total -= cost(lines[index] as string);
  }
  return lines.filter((_line, index) => !dropped.has(index)).join('\n');
}

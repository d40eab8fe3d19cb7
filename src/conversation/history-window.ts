import type { AttachmentView } from '../schemas/files.js';
import { estimateMessageTokens } from './tokens.js';

/** A tool the agent ran while answering, as stored with the conversation. */
export interface StoredToolCall {
  toolCallId: string;
  name: string;
  input: unknown;
  /** The output the model was given (already capped), when the tool succeeded. */
  output?: unknown;
  /** What the model was told went wrong, when it did not. */
  error?: string;
  /** Images the tool made, stored as files. */
  attachments?: AttachmentView[];
  durationMs: number;
  /** For a tool that waited for a person: their decision (it ran only when approved). */
  approval?: { approvalId: string; status: 'approved' | 'denied' | 'expired'; reason: string | null };
}

/** One stored turn of a conversation, as the prompt needs it; `tool` turns sit between a message and its answer. */
export interface HistoryTurn {
  /** The stored turn's id, where it is known (recall leaves out what the window already holds). */
  id?: string;
  role: 'user' | 'agent' | 'tool';
  userId: string | null;
  text: string;
  tool?: StoredToolCall | null;
}

/** A conversation's turns grouped in exchanges (a user turn with the answers to it), newest exchange first. */
function exchangesOf(newestFirst: readonly HistoryTurn[]): HistoryTurn[][] {
  const exchanges: HistoryTurn[][] = [];
  let current: HistoryTurn[] = [];
  // Walking from the newest: agent turns collect until the user turn they answer.
  for (const turn of newestFirst) {
    current.unshift(turn);
    if (turn.role === 'user') {
      exchanges.push(current);
      current = [];
    }
  }
  // Whatever is left in `current` are answers whose question was not read: half an exchange, dropped.
  return exchanges;
}

/**
 * The most recent part of a conversation that fits `budgetTokens`. Turns are
 * kept in exchanges (a user turn with the agent's answer to it), newest first,
 * so the window never starts with half an exchange: an exchange that does not
 * fit is dropped whole, with everything older than it. `newestFirst` is the
 * history as read from storage; the result is oldest first, as a prompt reads.
 */
export function fitHistory(
  newestFirst: readonly HistoryTurn[],
  budgetTokens: number,
  render: (turn: HistoryTurn) => string = (turn) => turn.text,
): HistoryTurn[] {
  if (budgetTokens <= 0) return [];
  const exchanges = exchangesOf(newestFirst);
  const kept: HistoryTurn[][] = [];
  let used = 0;
  for (const exchange of exchanges) {
    const cost = exchange.reduce((sum, turn) => sum + estimateMessageTokens(render(turn)), 0);
    if (used + cost > budgetTokens) break;
    used += cost;
    kept.unshift(exchange);
  }
  return kept.flat();
}

/**
 * The window moves in steps: once it no longer fits, it starts again well
 * inside the budget (up to a fifth of it lower, see stepLevel), so that consecutive
 * prompts of a conversation share their whole history and providers can
 * serve it from their prompt cache. It never keeps less than `windowFloorShare`
 * of its bounds (or what the plain window, fitHistory, would keep when less), in tokens and in turns, so every
 * turn it leaves out is one memory already treats as leaving (see
 * memory/memory-schedule.ts, leavingShare) and is folded into the summary.
 */
export const windowStepShare = 0.2;
export const windowFloorShare = 0.8;
/** However small its exchanges, one in this many starts a step, so that a window bound by turns steps too. */
const sparsestStep = 8;

/** FNV-1a, mixed: a cheap, stable hash of an exchange's first turn, the same on every instance and every call. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  // MurmurHash3's finalizer: ids that differ in their last characters land far apart.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * How good a start an exchange makes: 0 for about one exchange per
 * `stepTokens` tokens of conversation, 1 for twice as many, and so on, chosen
 * by a hash of its first turn. The level depends on the exchange alone, not on
 * how much history was read or what came after it (content-defined chunking,
 * as rsync does), so it needs no stored state: every call whose window may
 * start at the same exchanges picks the same start.
 */
function stepLevel(exchange: HistoryTurn[], cost: number, stepTokens: number): number {
  const first = exchange[0] as HistoryTurn;
  const chance = Math.min(1, Math.max(1 / sparsestStep, cost / stepTokens));
  const drawn = (hashOf(first.id ?? first.text) + 1) / 0x1_0000_0000;
  return drawn <= chance ? 0 : Math.ceil(Math.log2(drawn / chance));
}

/**
 * The recent part of a conversation a prompt shows: within `budgetTokens`
 * and `maxTurns` like fitHistory, but starting at the oldest step start that
 * fits (see windowStepShare), so the start stays put from one message to the
 * next until the budget is reached, then moves by up to a fifth of it.
 */
export function fitHistoryStepped(
  newestFirst: readonly HistoryTurn[],
  budgetTokens: number,
  maxTurns: number,
  render: (turn: HistoryTurn) => string = (turn) => turn.text,
): HistoryTurn[] {
  if (budgetTokens <= 0) return [];
  const fitting: Array<{ exchange: HistoryTurn[]; cost: number; tokens: number; turns: number }> = [];
  let tokens = 0;
  let turns = 0;
  const exchanges = exchangesOf(newestFirst.slice(0, maxTurns));
  for (const exchange of exchanges) {
    const cost = exchange.reduce((sum, turn) => sum + estimateMessageTokens(render(turn)), 0);
    if (tokens + cost > budgetTokens) break;
    tokens += cost;
    turns += exchange.length;
    fitting.push({ exchange, cost, tokens, turns });
  }
  // The floor is a share of the bounds, not of the plain window: memory's leaving window is a share of the same
  // bounds. A window may end no newer than the floor window's oldest exchange.
  let floor = 0;
  while (
    floor + 1 < fitting.length &&
    (fitting[floor + 1] as (typeof fitting)[number]).tokens <= budgetTokens * windowFloorShare &&
    (fitting[floor + 1] as (typeof fitting)[number]).turns <= maxTurns * windowFloorShare
  ) {
    floor += 1;
  }
  const stepTokens = budgetTokens * windowStepShare;
  // Fewer turns than could be read: the oldest is the conversation's first, a start that never moves.
  const whole = newestFirst.length < maxTurns && fitting.length === exchanges.length;
  // The best start between the plain window's and the floor's, the oldest of equals: it stays the best until it
  // no longer fits (or a better one comes within the floor), so the start moves seldom and only forwards.
  let kept = fitting.length;
  let best = Number.POSITIVE_INFINITY;
  for (let index = fitting.length - 1; index >= floor; index -= 1) {
    const candidate = fitting[index] as (typeof fitting)[number];
    const level =
      whole && index === fitting.length - 1 ? -1 : stepLevel(candidate.exchange, candidate.cost, stepTokens);
    if (level < best) {
      best = level;
      kept = index + 1;
    }
  }
  return fitting
    .slice(0, kept)
    .reverse()
    .flatMap((entry) => entry.exchange);
}

/**
 * The history budget an agent gets by default (memory.budgets.historyTokens
 * null): a bounded prompt, so that a message's cost does not grow with the
 * conversation. Turns beyond it are carried by the summary, facts and recall.
 * Chosen by measurement (bench/README.md, "prompt cost"): the smaller of a
 * fixed number of tokens and a share of what the model's window leaves, so a
 * small local model still has room for the rest of the prompt.
 */
export const defaultHistoryTokens = 3_000;
export const defaultHistoryShare = 0.5;
/** The setting that means "as much history as the model's window leaves" (the most historyTokens accepts). */
export const wholeWindowHistoryTokens = 1_000_000;

/** The tokens the recent turns may take, from the agent's setting and what the model's window leaves for a prompt. */
export function historyTokensOf(setting: number | null, promptBudgetTokens: number): number {
  if (setting !== null) return setting;
  return Math.min(defaultHistoryTokens, Math.floor(promptBudgetTokens * defaultHistoryShare));
}

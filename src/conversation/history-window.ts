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

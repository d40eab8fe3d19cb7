import { searchTermsOf } from '../knowledge-query.js';
import { estimateTokens } from '../tokens.js';

/**
 * What long-term memory adds to a prompt, and how it reads there: the rolling
 * summary of what left the window, the facts of the users present, and the
 * earlier turns recalled for this message, each within its own token budget.
 * The summary and facts change seldom and go in the system prompt, before the
 * recent turns; recalled turns change with every message and go in the notes
 * of the last message (see prompt.ts).
 */

export interface MemoryFactEntry {
  userId: string;
  subject: string;
  statement: string;
  updatedAt: string;
}

/** An earlier turn of the conversation found for the current message. */
export interface RecalledTurn {
  id: string;
  role: 'user' | 'agent';
  userId: string | null;
  text: string;
}

export interface PromptMemory {
  summary: string | null;
  /** The facts chosen for this message (see chooseFacts), in the order they are shown. */
  facts: MemoryFactEntry[];
  /** Recall candidates, best first; those already in the window are left out when the prompt is assembled. */
  recalled: RecalledTurn[];
  summaryTokens: number;
  recallTokens: number;
}

/** Text cut to about `tokens` tokens, at a word boundary when there is one. */
export function cutToTokens(text: string, tokens: number): string {
  const maxCharacters = tokens * 4;
  if (text.length <= maxCharacters) return text;
  const cut = text.slice(0, maxCharacters);
  const space = cut.lastIndexOf(' ');
  return `${space > maxCharacters / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * The facts worth the budget: those sharing words with the message first,
 * then the most recently confirmed; the sender's before other speakers' on a
 * tie. Shown grouped by user, in subject order, so the prompt reads the same
 * from one message to the next when nothing changed.
 */
export function chooseFacts(
  facts: readonly MemoryFactEntry[],
  message: string,
  senderId: string | null,
  budgetTokens: number,
): MemoryFactEntry[] {
  if (facts.length === 0 || budgetTokens <= 0) return [];
  // A substring test per term, not a tokenization of each fact: a user may have a thousand facts, and this
  // runs for every message.
  const terms = searchTermsOf(message);
  const scored = facts.map((fact) => {
    let score = 0;
    if (terms.length > 0) {
      const text = `${fact.subject} ${fact.statement}`.toLowerCase();
      // A term naming the fact's subject ("name", "units") says most about what the message needs.
      for (const term of terms) if (text.includes(term)) score += fact.subject.includes(term) ? 3 : 1;
    }
    return { fact, score };
  });
  scored.sort(
    (left, right) =>
      right.score - left.score ||
      Number(right.fact.userId === senderId) - Number(left.fact.userId === senderId) ||
      (right.fact.updatedAt < left.fact.updatedAt ? -1 : right.fact.updatedAt > left.fact.updatedAt ? 1 : 0),
  );
  const chosen: MemoryFactEntry[] = [];
  let used = 0;
  for (const { fact } of scored) {
    const cost = estimateTokens(fact.statement) + 3;
    if (used + cost > budgetTokens) continue;
    chosen.push(fact);
    used += cost;
  }
  return chosen.sort((left, right) =>
    left.userId === right.userId
      ? left.subject < right.subject
        ? -1
        : 1
      : left.userId === senderId
        ? -1
        : right.userId === senderId
          ? 1
          : left.userId < right.userId
            ? -1
            : 1,
  );
}

export function renderSummary(summary: string, budgetTokens: number): string {
  return `Summary of the earlier conversation (older turns are not shown):\n${cutToTokens(summary, budgetTokens)}`;
}

export function renderFacts(facts: readonly MemoryFactEntry[], shared: boolean): string {
  const lines = facts.map((fact) => `- ${shared ? `[${fact.userId}] ` : ''}${fact.statement}`);
  const whom = shared ? 'the people in this conversation' : 'the person you are talking with';
  return `What you remember about ${whom} (they may correct it):\n${lines.join('\n')}`;
}

/** The recalled turns not already in the window that fit the budget, best first chosen, shown oldest first. */
export function chooseRecalled(
  recalled: readonly RecalledTurn[],
  inWindow: ReadonlySet<string>,
  budgetTokens: number,
): RecalledTurn[] {
  const chosen: RecalledTurn[] = [];
  let used = 0;
  for (const turn of recalled) {
    if (inWindow.has(turn.id)) continue;
    const cost = estimateTokens(turn.text) + 4;
    if (used + cost > budgetTokens) continue;
    chosen.push(turn);
    used += cost;
  }
  return chosen.sort((left, right) => (left.id < right.id ? -1 : 1));
}

export function renderRecalled(turns: readonly RecalledTurn[], shared: boolean): string {
  const lines = turns.map((turn) =>
    turn.role === 'agent'
      ? `- you: ${turn.text}`
      : `- ${shared && turn.userId ? `[${turn.userId}]` : 'user'}: ${turn.text}`,
  );
  return `Earlier in this conversation (recalled because it may be relevant to the message):\n${lines.join('\n')}`;
}

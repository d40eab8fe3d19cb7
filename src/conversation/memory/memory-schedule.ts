import { fitHistory, type HistoryTurn } from '../history-window.js';

/**
 * When long-term memory's model work runs. Facts and the summary are not
 * brought up to date after every exchange (one more model call per message)
 * but in batches:
 *
 * - facts once `everyUserTurns` user turns that say something wait, in one
 *   call for all of them;
 * - whatever waits once the conversation has been idle for `idleSeconds`;
 * - before the window drops a turn not yet processed: a turn is *leaving*
 *   once it is outside the window three quarters as large (in tokens and in
 *   turns) as the prompt's, so it is read for facts, and folded into the
 *   summary, while the prompt still shows it. A fold then runs ahead to the
 *   half window, so that one summary call covers a quarter window of turns
 *   rather than one exchange.
 *
 * Turns that carry nothing new (see isSmallTalk) cost no model call: the
 * markers move past them.
 */
export interface MemorySchedule {
  everyUserTurns: number;
  idleSeconds: number;
}

/** The share of the window whose turns are not yet leaving, and the share a summary fold leaves unfolded. */
export const leavingShare = 0.75;
export const foldShare = 0.5;

/**
 * Words that, alone, say nothing a memory should keep: greetings, thanks,
 * farewells, acknowledgements, laughter, and the few function words they come
 * with ("thank you so much", "ok got it", "hi there"). Kept short on purpose:
 * "yes", "no" and "sure" answer questions and are not in it.
 */
const smallTalkWords = new Set(
  (
    'hi hello hey heya hiya howdy yo greetings hola ola oi bonjour salut hallo ciao ' +
    'good morning afternoon evening night day gm gn ' +
    'thanks thank thx ty tysm cheers gracias merci danke obrigado obrigada grazie appreciated appreciate ' +
    'bye goodbye byebye cya later ttyl adios tschuss tschüss ' +
    'ok okay okey k kk alright cool great nice awesome perfect fine noted understood gotcha got it ' +
    'lol lmao haha hahaha hehe heh hmm hm ah oh wow ' +
    'you u so much very a lot all there again too for that the and then'
  ).split(' '),
);
/** A message this long is never small talk, whatever its words. */
const smallTalkMaxWords = 12;

/**
 * True when a message carries nothing a memory keeps: no words at all (emoji,
 * punctuation), or only the small-talk words above. Deterministic and cheap
 * (one pass over at most a dozen words); any other word — a name, a place, a
 * number, a word of another language not listed — makes the message count.
 */
export function isSmallTalk(text: string): boolean {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length > smallTalkMaxWords) return false;
  return words.every((word) => smallTalkWords.has(word));
}

/** An agent's answer this long is more than a pleasantry, whatever it answered. */
const pleasantryMaxWords = 25;

/**
 * True when turns to be folded into the summary carry nothing new: every user
 * turn is small talk and every answer to one is short (a greeting answered,
 * thanks acknowledged).
 */
export function foldsNothingNew(turns: ReadonlyArray<{ role: 'user' | 'agent' | 'tool'; text: string }>): boolean {
  return turns.every((turn) =>
    turn.role === 'user'
      ? isSmallTalk(turn.text)
      : turn.role === 'tool' || (turn.text.match(/\S+/g) ?? []).length <= pleasantryMaxWords,
  );
}

/**
 * The first turn of the window a share of the prompt's budget (tokens and
 * turns) would keep: every turn before it is outside. Null when that window
 * is empty (every turn is outside).
 */
export function windowStartAt(
  newestFirst: readonly HistoryTurn[],
  budgetTokens: number,
  maxTurns: number,
  share: number,
  render: (turn: HistoryTurn) => string,
): string | null {
  const window = fitHistory(
    newestFirst.slice(0, Math.floor(maxTurns * share)),
    Math.floor(budgetTokens * share),
    render,
  );
  return window[0]?.id ?? null;
}

/** True when the turn `id` is outside a window starting at `start` (null: an empty window, all outside). */
export function isOutside(id: string, start: string | null): boolean {
  return start === null || id < start;
}

/** What waits to be done for a conversation, as its stored turns and markers say. */
export interface WaitingMemoryWork {
  /** User turns not yet read for facts that say something (not small talk). */
  factTurns: number;
  /** User turns not yet read for facts, small talk included. */
  factTurnsAll: number;
  /** A user turn not yet read for facts is leaving the window. */
  factTurnLeaving: boolean;
  /** A turn not yet folded into the summary is leaving the window. */
  summaryTurnLeaving: boolean;
}

export interface MemoryWorkPlan {
  facts: boolean;
  summary: boolean;
  /** Work is left waiting: the conversation's idle time brings it in. */
  waiting: boolean;
}

/**
 * What to do now. `idle`: the conversation has had no message for the
 * schedule's idle time; `everyExchange`: all of it, every time (the builtin
 * model, whose memory work costs no model call).
 */
export function planMemoryWork(
  work: WaitingMemoryWork,
  schedule: MemorySchedule,
  trigger: { idle: boolean; everyExchange?: boolean },
): MemoryWorkPlan {
  const eager = trigger.idle || trigger.everyExchange === true;
  // Small talk alone never starts a pass: the next pass (or the window) moves the marker past it.
  const facts = work.factTurnsAll > 0 && (eager || work.factTurnLeaving || work.factTurns >= schedule.everyUserTurns);
  return {
    facts,
    summary: work.summaryTurnLeaving,
    waiting: !facts && work.factTurns > 0,
  };
}

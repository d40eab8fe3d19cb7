import type { TakenItem } from './platform.js';

/**
 * Settles an item once its answer ended: `answered` true marks it answered
 * (never answered again), false (the connector stopped first) gives its
 * claim back for a live instance to take over. A failure to record either is
 * logged by the caller: the claim runs out and the item is taken over.
 */
export async function settleTaken(taken: TakenItem, answered: boolean): Promise<void> {
  await (answered ? taken.answered() : taken.release());
}

/**
 * Answers a taken item with `answer`, then settles it: a failure thrown
 * gives the claim back before it is rethrown (the caller's loop decides
 * what the failure means, e.g. refused credentials).
 */
export async function answerTaken(taken: TakenItem, answer: () => Promise<boolean>): Promise<void> {
  let answered: boolean;
  try {
    answered = await answer();
  } catch (error) {
    await taken.release().catch(() => undefined);
    throw error;
  }
  await settleTaken(taken, answered);
}

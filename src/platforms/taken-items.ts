import { takeInOrder } from './in-order.js';
import type { PlatformContext } from './platform.js';

/**
 * What becomes of the items a social poller takes (X's mentions, Bluesky's
 * notifications) after the take: the ones a dead holder left unanswered are
 * answered by the next poller to start, and old claims are forgotten.
 */

/** An item (a mention, a Telegram update) taken this many times over takeovers and never answered is given up (it may be what kills them). */
export const maxItemAttempts = 3;
/** A pending item taken longer ago than this is given up: the account was stopped for a day, it is not news. */
export const maxPendingAgeMs = 24 * 60 * 60 * 1000;
/** Claims are kept this long (a poll never reaches further back), and swept this often. */
const claimRetentionMs = 7 * 24 * 3_600_000;
const sweepEveryMs = 3_600_000;

export interface Leftovers<Item> {
  /** As in logs: 'x', 'bluesky'. */
  platform: string;
  /** What an item is called in log lines: 'X mention'. */
  noun: string;
  context: PlatformContext;
  /** Answered at a time, as a poll answers them. */
  concurrency: number;
  /** The item as it was stored with its take. */
  parse(pending: string): Item;
  /** The platform's order, oldest first. */
  compare(first: Item, second: Item): number;
  threadOf(item: Item): string;
  /** Answers it: false when the connector stopped first (it stays pending for the next start). */
  answer(item: Item): Promise<boolean>;
  /** A failure as it may be logged (no secret). */
  describe(error: unknown): unknown;
}

/**
 * Answers the items earlier holders took and never answered (their process
 * died, or the connector stopped, in the middle), before the poller takes
 * anything new: in the platform's order, up to `concurrency` at a time and a
 * thread's one after the other, each settled once answered (or once its
 * answer definitively failed). One taken `maxItemAttempts` times, or more than
 * `maxPendingAgeMs` ago, is given up with a warning. A failure here is logged
 * and polling goes on; what was not answered is found again at the next start.
 */
export async function answerLeftovers<Item>(leftovers: Leftovers<Item>): Promise<void> {
  const { context, noun } = leftovers;
  const about = { agentId: context.agentId, platform: leftovers.platform };
  try {
    const retaken = (await context.items.retakePending())
      .map((taken) => ({ ...taken, item: leftovers.parse(taken.pending) }))
      .sort((first, second) => leftovers.compare(first.item, second.item));
    await takeInOrder(
      retaken,
      leftovers.concurrency,
      context.signal,
      async (taken) => {
        const seen = { ...about, itemId: taken.itemId, attempts: taken.attempts };
        if (taken.attempts > maxItemAttempts) {
          context.logger.warn(seen, `${noun} given up after repeated takeovers`);
          await context.items.settle(taken.itemId);
          return false;
        }
        if (context.clock.now() - taken.takenAt > maxPendingAgeMs) {
          // The account was stopped for a day or more (the agent inactive, the platform disabled).
          context.logger.warn(seen, `${noun} given up: taken more than a day ago`);
          await context.items.settle(taken.itemId);
          return false;
        }
        context.logger.info(seen, `${noun} taken before a takeover, answered now`);
        return true;
      },
      async (taken) => {
        if (await leftovers.answer(taken.item)) await context.items.settle(taken.itemId);
      },
      (taken) => leftovers.threadOf(taken.item),
    );
  } catch (error) {
    if (context.signal.aborted) return;
    context.logger.warn({ ...about, error: leftovers.describe(error) }, `${noun}s left pending not answered`);
  }
}

/** Forgets claims past their retention, at most once an hour per poller; a failure waits for the next time. */
export class ClaimSweeper {
  #sweptAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly context: PlatformContext) {}

  async sweepIfDue(): Promise<void> {
    const now = this.context.clock.now();
    if (now - this.#sweptAt <= sweepEveryMs) return;
    this.#sweptAt = now;
    await this.context.items.sweep(claimRetentionMs).catch(() => undefined);
  }
}

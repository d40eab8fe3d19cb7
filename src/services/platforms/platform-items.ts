import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { isoTime, type Clock } from '../../clock.js';
import type { TakenItem } from '../../platforms/platform.js';
import type { PlatformItemKey, PlatformItemRepository } from '../../storage/repositories/platform-items.js';

/** An item taken this many times over takeovers and never answered is given up (it may be what kills its holders). */
export const maxItemAttempts = 3;
/** An item first taken longer ago than this is given up, not answered: the connector was stopped for a day. */
export const maxPendingAgeMs = 24 * 60 * 60 * 1000;
/** Items are remembered this long (no platform delivers one again later), and forgotten this often. */
const itemRetentionMs = 7 * 24 * 3_600_000;
const forgetEveryMs = 3_600_000;
/** Expired claims read per sweep. */
const sweepBatch = 200;

type Answer = (item: TakenItem) => Promise<boolean>;
/** A connector running here: how it answers a taken-over item, and the signal that stops it. */
interface Answerer {
  answer: Answer;
  signal: AbortSignal;
}

export interface PlatformItemClaimsOptions {
  items: PlatformItemRepository;
  instanceId: string;
  clock: Clock;
  logger: Logger;
  /** How long a claim lives unless renewed; renewed every third of it, and expired claims are looked for as often. */
  claimMs: number;
}

const keyOf = (agentId: string, type: string) => `${agentId}\u0000${type}`;

/**
 * The claims of inbound platform items on this instance: takes them (with
 * a claim renewed while held), and sweeps for unanswered items whose claim
 * ran out (their instance died or stopped) to hand them to the connector
 * running here that answers them. The sweep runs only while some connector
 * that answers taken-over items runs on this instance.
 */
export class PlatformItemClaims {
  /** Per agent and type, the answerers of the connectors running here (a restart may briefly add a second). */
  readonly #answerers = new Map<string, Set<Answerer>>();
  /** Per agent and type, the takeovers being answered, one after the other in take order. */
  readonly #answering = new Map<string, Promise<void>>();
  #sweepTimer: NodeJS.Timeout | null = null;
  #sweeping = false;
  #forgotAt = Number.NEGATIVE_INFINITY;
  #closed = false;

  constructor(private readonly options: PlatformItemClaimsOptions) {}

  #claim() {
    const { clock, claimMs, instanceId } = this.options;
    return { owner: instanceId, token: randomBytes(12).toString('hex'), expiresAt: isoTime(clock.now() + claimMs) };
  }

  /** Records the item with a claim of this instance (see PlatformContext.items.take). */
  async take(
    key: PlatformItemKey,
    pending: string,
    connectorSignal: AbortSignal,
    logger: Logger,
  ): Promise<TakenItem | null> {
    const claim = this.#claim();
    const now = isoTime(this.options.clock.now());
    const claimed = await this.options.items.take(key, pending, claim, now);
    if (claimed === null) return null;
    return this.#held(key, claim.token, claimed, connectorSignal, logger);
  }

  /** A claim this instance holds: renewed every third of its life until answered, released or lost. */
  #held(
    key: PlatformItemKey,
    token: string,
    claimed: { pending: string; attempts: number; takenAt: string },
    connectorSignal: AbortSignal,
    logger: Logger,
  ): TakenItem {
    const { items, clock, claimMs } = this.options;
    const lost = new AbortController();
    let expiresAt = clock.now() + claimMs;
    let done = false;
    const timer = setInterval(
      () => {
        const next = clock.now() + claimMs;
        items.renew(key, token, isoTime(next)).then(
          (renewed) => {
            if (done) return;
            if (renewed) expiresAt = next;
            else stop('lost');
          },
          () => {
            // The store out of reach: the claim holds until it runs out, and is lost then.
            if (!done && clock.now() >= expiresAt) stop('lost');
          },
        );
      },
      Math.max(100, Math.floor(claimMs / 3)),
    );
    timer.unref();
    const stop = (why: 'lost' | 'done') => {
      if (done) return;
      done = true;
      clearInterval(timer);
      if (why === 'lost') {
        logger.warn({ ...key }, 'platform item claim lost: another instance answers it');
        lost.abort();
      }
    };
    return {
      itemId: key.itemId,
      pending: claimed.pending,
      attempts: claimed.attempts,
      takenAt: Date.parse(claimed.takenAt),
      signal: AbortSignal.any([lost.signal, connectorSignal]),
      answered: async () => {
        stop('done');
        await items.markAnswered(key, token, isoTime(clock.now()));
      },
      release: async () => {
        stop('done');
        await items.release(key, token, isoTime(clock.now()));
      },
    };
  }

  /**
   * Registers how a connector running here answers items taken over, until
   * `signal` aborts (the connector stopped); the sweep runs while any is registered.
   */
  register(agentId: string, type: string, answer: Answer, signal: AbortSignal): void {
    if (signal.aborted || this.#closed) return;
    const key = keyOf(agentId, type);
    const answerers = this.#answerers.get(key) ?? new Set<Answerer>();
    const answerer = { answer, signal };
    answerers.add(answerer);
    this.#answerers.set(key, answerers);
    signal.addEventListener(
      'abort',
      () => {
        answerers.delete(answerer);
        if (answerers.size === 0 && this.#answerers.get(key) === answerers) this.#answerers.delete(key);
        if (this.#answerers.size === 0) this.#stopSweeping();
      },
      { once: true },
    );
    if (this.#sweepTimer === null) {
      this.#sweepTimer = setInterval(() => void this.sweep(), Math.max(100, Math.floor(this.options.claimMs / 3)));
      this.#sweepTimer.unref();
    }
  }

  #stopSweeping(): void {
    if (this.#sweepTimer !== null) clearInterval(this.#sweepTimer);
    this.#sweepTimer = null;
  }

  /**
   * One look for unanswered items whose claim ran out: those a connector
   * running here answers are taken over (one instance wins each) and
   * answered, a connector's one after the other in the order they ran out;
   * one taken `maxItemAttempts` times, or first taken more than a day ago,
   * is given up with a warning. Resolves once the takeovers are started.
   */
  async sweep(): Promise<void> {
    if (this.#sweeping || this.#closed) return;
    this.#sweeping = true;
    const { items, clock, logger } = this.options;
    try {
      const now = clock.now();
      for (const stale of await items.giveUpStale(isoTime(now - maxPendingAgeMs), isoTime(now))) {
        logger.warn({ ...stale }, 'platform item given up: taken more than a day ago');
      }
      if (now - this.#forgotAt > forgetEveryMs) {
        this.#forgotAt = now;
        await items.forget(isoTime(now - itemRetentionMs));
      }
      for (const expired of await items.expired(isoTime(now), sweepBatch)) {
        const answerers = this.#answerers.get(keyOf(expired.agentId, expired.type));
        const answerer = answerers === undefined ? undefined : [...answerers].at(-1);
        if (answerer === undefined) continue;
        const key = { agentId: expired.agentId, type: expired.type, itemId: expired.itemId };
        const claim = this.#claim();
        const claimed = await items.takeOver(key, claim, isoTime(clock.now()));
        if (claimed === null) continue;
        const taken = this.#held(key, claim.token, claimed, answerer.signal, logger);
        const seen = { ...key, attempts: claimed.attempts };
        if (claimed.attempts > maxItemAttempts) {
          logger.warn(seen, 'platform item given up after repeated takeovers');
          await taken.answered();
          continue;
        }
        logger.info(seen, 'platform item left unanswered, taken over and answered now');
        this.#answerInTurn(keyOf(expired.agentId, expired.type), taken, answerer.answer);
      }
    } catch (error) {
      logger.warn({ error: (error as Error).message }, 'platform item sweep failed');
    } finally {
      this.#sweeping = false;
    }
  }

  #answerInTurn(key: string, taken: TakenItem, answer: Answer): void {
    const previous = this.#answering.get(key) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        // A failure gives the item back: tried again at a later sweep, up to `maxItemAttempts` times.
        const answered = await answer(taken).catch((error: unknown) => {
          // Only the error's name: a connector's own messages are scrubbed where it logs them, not here.
          this.options.logger.warn(
            { itemId: taken.itemId, error: error instanceof Error ? error.name : 'unknown' },
            'platform item taken over, not answered',
          );
          return false;
        });
        await (answered ? taken.answered() : taken.release());
      })
      .catch((error: unknown) => {
        this.options.logger.warn(
          { itemId: taken.itemId, error: (error as Error).message },
          'platform item not settled',
        );
      })
      .finally(() => {
        if (this.#answering.get(key) === next) this.#answering.delete(key);
      });
    this.#answering.set(key, next);
  }

  /** Resolves once the takeovers started so far are answered and settled. */
  async idle(): Promise<void> {
    while (this.#answering.size > 0) await Promise.all([...this.#answering.values()]);
  }

  /** Stops sweeping (shutdown); claims in flight are renewed until their answers end. */
  close(): void {
    this.#closed = true;
    this.#stopSweeping();
    this.#answerers.clear();
  }
}

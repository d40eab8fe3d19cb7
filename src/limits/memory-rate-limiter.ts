import type { Clock } from '../clock.js';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';

const sweepEveryMs = 60_000;

/** Sliding-log limits kept in this process: exact for one instance, and the fallback when Redis is away. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #logs = new Map<string, { windowMs: number; times: number[] }>();
  readonly #clock: Clock;
  readonly #sweeper: NodeJS.Timeout;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#sweeper = setInterval(() => this.#sweep(), sweepEveryMs);
    this.#sweeper.unref();
  }

  async consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    return this.consumeNow(key, limit, windowMs);
  }

  /** The synchronous core: no await between reading and writing, so bursts are counted exactly. */
  consumeNow(key: string, limit: number, windowMs: number): RateLimitDecision {
    const now = this.#clock.now();
    let log = this.#logs.get(key);
    if (log === undefined) {
      log = { windowMs, times: [] };
      this.#logs.set(key, log);
    }
    log.windowMs = windowMs;
    const times = log.times;
    let expired = 0;
    while (expired < times.length && (times[expired] as number) <= now - windowMs) expired += 1;
    if (expired > 0) times.splice(0, expired);

    if (times.length >= limit) {
      const oldest = times[times.length - limit] as number;
      return {
        allowed: false,
        limit,
        remaining: 0,
        resetAt: (times.at(-1) as number) + windowMs,
        retryAfterMs: Math.max(1, oldest + windowMs - now),
      };
    }
    times.push(now);
    return { allowed: true, limit, remaining: limit - times.length, resetAt: now + windowMs, retryAfterMs: 0 };
  }

  #sweep(): void {
    const now = this.#clock.now();
    for (const [key, log] of this.#logs) {
      if (log.times.length === 0 || (log.times.at(-1) as number) <= now - log.windowMs) this.#logs.delete(key);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#logs.clear();
  }
}

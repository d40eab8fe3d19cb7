import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { ConcurrencyLease, ConcurrencyLimiter } from './concurrency-limiter.js';
import { MemoryConcurrencyLimiter } from './memory-concurrency-limiter.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';
import { RedisConcurrencyLimiter, type RedisConcurrencyOptions } from './redis-concurrency-limiter.js';
import { RedisLink, type RedisLinkOptions } from './redis-link.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';

/**
 * The limiters of an instance. Without Redis they live in this process. With
 * Redis they are shared by every instance, and fall back to this process's own
 * counters while Redis does not answer: the service keeps serving with
 * per-instance limits rather than refusing every request or failing open
 * without any limit at all.
 */
export interface Limits {
  rateLimiter: RateLimiter;
  concurrencyLimiter: ConcurrencyLimiter;
  /** The Redis connection when limits are shared, for readiness. */
  redis: RedisLink | null;
  close(): Promise<void>;
}

export interface CreateLimitsOptions {
  logger: Logger;
  clock: Clock;
  /** Timings, shortened by tests. */
  redis?: RedisLinkOptions & Omit<RedisConcurrencyOptions, 'leaseMs'>;
  /** How long start-up waits for a first Redis connection before going on without it. */
  connectWaitMs?: number;
}

class FallbackRateLimiter implements RateLimiter {
  constructor(
    private readonly link: RedisLink,
    private readonly shared: RedisRateLimiter,
    private readonly local: MemoryRateLimiter,
  ) {}

  consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    return this.link.run(
      () => this.shared.consume(key, limit, windowMs),
      () => this.local.consumeNow(key, limit, windowMs),
    );
  }

  async close(): Promise<void> {
    await this.shared.close();
    await this.local.close();
  }
}

class FallbackConcurrencyLimiter implements ConcurrencyLimiter {
  constructor(
    private readonly link: RedisLink,
    private readonly shared: RedisConcurrencyLimiter,
    private readonly local: MemoryConcurrencyLimiter,
  ) {}

  acquire(key: string, max: number): Promise<ConcurrencyLease | null> {
    return this.link.run(
      () => this.shared.acquire(key, max),
      () => this.local.acquireNow(key, max),
    );
  }

  async close(): Promise<void> {
    await this.shared.close();
    await this.local.close();
  }
}

export async function createLimits(config: Config, options: CreateLimitsOptions): Promise<Limits> {
  if (config.redis === null) {
    const rateLimiter = new MemoryRateLimiter(options.clock);
    const concurrencyLimiter = new MemoryConcurrencyLimiter();
    return {
      rateLimiter,
      concurrencyLimiter,
      redis: null,
      async close() {
        await rateLimiter.close();
        await concurrencyLimiter.close();
      },
    };
  }

  const link = new RedisLink(config.redis.url, options.logger, options.redis);
  const rateLimiter = new FallbackRateLimiter(
    link,
    new RedisRateLimiter(link.client, config.redis.keyPrefix),
    new MemoryRateLimiter(options.clock),
  );
  const concurrencyLimiter = new FallbackConcurrencyLimiter(
    link,
    new RedisConcurrencyLimiter(link.client, config.redis.keyPrefix, options.logger, {
      ...options.redis,
      leaseMs: config.redis.leaseMs,
    }),
    new MemoryConcurrencyLimiter(),
  );
  if (!(await link.waitUntilReady(options.connectWaitMs ?? 2000))) {
    options.logger.warn('Redis did not answer at start-up: starting with per-instance limits until it does');
  }
  return {
    rateLimiter,
    concurrencyLimiter,
    redis: link,
    async close() {
      // Leases first, while the connection is still open, so their slots are free at once.
      await concurrencyLimiter.close();
      await rateLimiter.close();
      await link.close();
    },
  };
}

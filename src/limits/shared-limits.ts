import type { Config } from '../config.js';
import type { ConcurrencyLease, ConcurrencyLimiter } from './concurrency-limiter.js';
import type { CreateLimitsOptions, Limits } from './limits.js';
import { MemoryConcurrencyLimiter } from './memory-concurrency-limiter.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';
import { RedisConcurrencyLimiter } from './redis-concurrency-limiter.js';
import { RedisLink } from './redis-link.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';

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

/** The limits of an instance that shares them through Redis (see `Limits`). */
export async function createSharedLimits(
  redis: NonNullable<Config['redis']>,
  options: CreateLimitsOptions,
): Promise<Limits> {
  const link = new RedisLink(redis.url, options.logger, options.redis);
  const rateLimiter = new FallbackRateLimiter(
    link,
    new RedisRateLimiter(link.client, redis.keyPrefix),
    new MemoryRateLimiter(options.clock),
  );
  const concurrencyLimiter = new FallbackConcurrencyLimiter(
    link,
    new RedisConcurrencyLimiter(link.client, redis.keyPrefix, options.logger, {
      ...options.redis,
      leaseMs: redis.leaseMs,
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

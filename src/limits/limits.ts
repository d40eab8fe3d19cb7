import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { ConcurrencyLimiter } from './concurrency-limiter.js';
import { MemoryConcurrencyLimiter } from './memory-concurrency-limiter.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';
import type { RedisConcurrencyOptions } from './redis-concurrency-limiter.js';
import type { RedisLink, RedisLinkOptions } from './redis-link.js';

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

  // ioredis is loaded only by instances that share their limits (a tenth of a second of every start otherwise).
  const { createSharedLimits } = await import('./shared-limits.js');
  return createSharedLimits(config.redis, options);
}

import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';
import { redisNowLua } from './redis-link.js';

/**
 * The sliding log of MemoryRateLimiter, kept in a Redis sorted set so every
 * instance counts against the same log. One Lua script reads, decides and
 * writes atomically, so concurrent bursts across instances are counted exactly;
 * it takes the time from the Redis server, so instance clocks need not agree.
 * Denied requests are not logged (the log never holds more than `limit`
 * entries), and the key expires one window after its newest entry.
 */
const consumeScript = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
${redisNowLua}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  return {0, 0, tonumber(newest[2]) + window, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {1, limit - count - 1, now + window, 0}
`;

type ConsumeReply = [allowed: number, remaining: number, resetAt: number, retryAfterMs: number];

interface RateLimitCommands {
  agentdRateLimitConsume(key: string, limit: number, windowMs: number, member: string): Promise<ConsumeReply>;
}

export class RedisRateLimiter implements RateLimiter {
  readonly #client: Redis & RateLimitCommands;
  readonly #keyPrefix: string;
  /** Log entries must be unique within a key even when two land in the same millisecond. */
  readonly #memberPrefix = randomBytes(6).toString('hex');
  #sequence = 0;

  constructor(client: Redis, keyPrefix: string) {
    if (!('agentdRateLimitConsume' in client)) {
      client.defineCommand('agentdRateLimitConsume', { numberOfKeys: 1, lua: consumeScript });
    }
    this.#client = client as Redis & RateLimitCommands;
    this.#keyPrefix = `${keyPrefix}rate:`;
  }

  /** Throws when Redis does not answer; the caller decides what happens then. */
  async consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    this.#sequence = (this.#sequence + 1) % Number.MAX_SAFE_INTEGER;
    const [allowed, remaining, resetAt, retryAfterMs] = await this.#client.agentdRateLimitConsume(
      this.#keyPrefix + key,
      limit,
      windowMs,
      `${this.#memberPrefix}:${this.#sequence}`,
    );
    return {
      allowed: allowed === 1,
      limit,
      remaining,
      resetAt,
      retryAfterMs: allowed === 1 ? 0 : Math.max(1, retryAfterMs),
    };
  }

  /** The connection belongs to the RedisLink; nothing of its own to close. */
  async close(): Promise<void> {}
}

import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ConcurrencyLease, ConcurrencyLimiter } from './concurrency-limiter.js';
import { redisNowLua } from './redis-link.js';

/**
 * A semaphore shared by all instances: one sorted set per key whose members are
 * the leases held and whose scores are their expiry times (Redis server time).
 * A holder refreshes its leases on a timer while it holds them, so a lease
 * outlives `leaseMs` only while its instance is alive: an instance that is
 * killed mid-stream frees its slots within one lease time.
 */
const acquireScript = `
local max = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
${redisNowLua}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= max then return 0 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
if redis.call('PTTL', KEYS[1]) < lease then redis.call('PEXPIRE', KEYS[1], lease) end
return 1
`;

/** Extends a lease that is still held; 0 when it expired (and may have been taken by someone else). */
const refreshScript = `
local lease = tonumber(ARGV[1])
${redisNowLua}
local expiry = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not expiry or tonumber(expiry) <= now then
  redis.call('ZREM', KEYS[1], ARGV[2])
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', now + lease, ARGV[2])
if redis.call('PTTL', KEYS[1]) < lease then redis.call('PEXPIRE', KEYS[1], lease) end
return 1
`;

interface SemaphoreCommands {
  agentdSemaphoreAcquire(key: string, max: number, leaseMs: number, token: string): Promise<number>;
  agentdSemaphoreRefresh(key: string, leaseMs: number, token: string): Promise<number>;
}

export interface RedisConcurrencyOptions {
  /** How long a lease lives without a refresh (default 30 s). */
  leaseMs?: number;
  /** How often held leases are refreshed (default a third of `leaseMs`, so two refreshes may fail in a row). */
  refreshEveryMs?: number;
}

export class RedisConcurrencyLimiter implements ConcurrencyLimiter {
  readonly #client: Redis & SemaphoreCommands;
  readonly #keyPrefix: string;
  readonly #logger: Logger;
  readonly #leaseMs: number;
  readonly #tokenPrefix = randomBytes(6).toString('hex');
  #sequence = 0;
  /** Leases this instance holds: token → Redis key. */
  readonly #held = new Map<string, string>();
  readonly #refresher: NodeJS.Timeout;

  constructor(client: Redis, keyPrefix: string, logger: Logger, options: RedisConcurrencyOptions = {}) {
    if (!('agentdSemaphoreAcquire' in client)) {
      client.defineCommand('agentdSemaphoreAcquire', { numberOfKeys: 1, lua: acquireScript });
      client.defineCommand('agentdSemaphoreRefresh', { numberOfKeys: 1, lua: refreshScript });
    }
    this.#client = client as Redis & SemaphoreCommands;
    this.#keyPrefix = `${keyPrefix}concurrency:`;
    this.#logger = logger;
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#refresher = setInterval(
      () => void this.#refreshAll(),
      options.refreshEveryMs ?? Math.floor(this.#leaseMs / 3),
    );
    this.#refresher.unref();
  }

  /** Throws when Redis does not answer; the caller decides what happens then. */
  async acquire(key: string, max: number): Promise<ConcurrencyLease | null> {
    this.#sequence = (this.#sequence + 1) % Number.MAX_SAFE_INTEGER;
    const token = `${this.#tokenPrefix}:${this.#sequence}`;
    const redisKey = this.#keyPrefix + key;
    const acquired = await this.#client.agentdSemaphoreAcquire(redisKey, max, this.#leaseMs, token);
    if (acquired !== 1) return null;
    this.#held.set(token, redisKey);
    return { release: () => this.#release(token) };
  }

  /** Leases this instance holds now (for tests and metrics). */
  get heldCount(): number {
    return this.#held.size;
  }

  async #release(token: string): Promise<void> {
    const redisKey = this.#held.get(token);
    if (redisKey === undefined) return;
    this.#held.delete(token);
    try {
      await this.#client.zrem(redisKey, token);
    } catch (error) {
      // Unreleased, the lease still ends by itself when it stops being refreshed.
      this.#logger.debug(
        { err: { message: (error as Error).message } },
        'could not release a concurrency lease; it expires on its own',
      );
    }
  }

  async #refreshAll(): Promise<void> {
    if (this.#held.size === 0) return;
    const entries = [...this.#held];
    const pipeline = this.#client.pipeline() as unknown as SemaphoreCommands & {
      exec(): Promise<Array<[Error | null, unknown]> | null>;
    };
    for (const [token, redisKey] of entries) pipeline.agentdSemaphoreRefresh(redisKey, this.#leaseMs, token);
    let results: Array<[Error | null, unknown]> | null;
    try {
      results = await pipeline.exec();
    } catch {
      results = null;
    }
    if (results === null || results.some(([error]) => error !== null)) {
      // Redis is away (the link reports that); the leases live on until they expire.
      return;
    }
    let lost = 0;
    results.forEach(([, stillHeld], index) => {
      const token = entries[index]![0];
      // A lease that expired may already belong to someone else: stop refreshing it.
      if (stillHeld === 0 && this.#held.delete(token)) lost += 1;
    });
    if (lost > 0) {
      this.#logger.warn(
        { leases: lost },
        'concurrency leases expired while still held (Redis was unreachable for longer than a lease); other instances may use those slots',
      );
    }
  }

  /** Stops refreshing and releases what is still held (an orderly shutdown frees its slots at once). */
  async close(): Promise<void> {
    clearInterval(this.#refresher);
    await Promise.all([...this.#held.keys()].map((token) => this.#release(token)));
  }
}

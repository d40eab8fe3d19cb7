import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * The one Redis connection of an instance, and the policy for when Redis is
 * away: limits fall back to this instance's own counters (see the README,
 * "When Redis is unreachable"). A request never waits long for Redis and never
 * fails because of it.
 */
export interface RedisLinkOptions {
  /** Longest a limiter command may take before the request falls back (default 1000 ms). */
  commandTimeoutMs?: number;
  /** After a failed command, how long to skip Redis before trying it again (default 1000 ms). */
  pauseAfterFailureMs?: number;
  /** Longest wait between reconnection attempts (default 2000 ms). */
  reconnectDelayMaxMs?: number;
  /** At most one "still unreachable" warning per this many milliseconds (default 60 s). */
  warnEveryMs?: number;
}

/**
 * Lua that sets `now` to the Redis server's time in milliseconds. Limiter
 * scripts take the time from the one server rather than from each instance,
 * so instances whose clocks disagree still count the same windows and leases.
 */
export const redisNowLua = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;

/** Where Redis is, for logs: host and port only, never the credentials a URL may carry. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'redis';
  }
}

/** An error's message and code only: some client errors carry the whole connection options. */
function safeError(error: unknown): { message: string; code?: string } {
  const { message, code } = error as { message?: unknown; code?: unknown };
  return {
    message: typeof message === 'string' ? message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

export class RedisLink {
  readonly client: Redis;
  readonly #logger: Logger;
  readonly #where: string;
  readonly #pauseAfterFailureMs: number;
  readonly #warnEveryMs: number;
  #pausedUntil = 0;
  #failing = false;
  #lastWarningAt = Number.NEGATIVE_INFINITY;
  #closed = false;

  constructor(url: string, logger: Logger, options: RedisLinkOptions = {}) {
    this.#logger = logger;
    this.#where = describeRedisUrl(url);
    this.#pauseAfterFailureMs = options.pauseAfterFailureMs ?? 1000;
    this.#warnEveryMs = options.warnEveryMs ?? 60_000;
    const reconnectDelayMaxMs = options.reconnectDelayMaxMs ?? 2000;
    this.client = new Redis(url, {
      // Commands fail at once while disconnected instead of queueing behind a
      // reconnection: the request then falls back and is answered without delay.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, reconnectDelayMaxMs),
      connectionName: 'agentd',
    });
    // Without a listener an 'error' event would crash the process; connection
    // errors are expected while Redis is away and are reported by `fellBack`.
    this.client.on('error', (error) => this.#noteFailure(error));
    this.client.on('ready', () => this.#noteSuccess());
  }

  /** Waits for the first connection, at most `timeoutMs`; start-up goes on without Redis otherwise. */
  async waitUntilReady(timeoutMs: number): Promise<boolean> {
    if (this.client.status === 'ready') return true;
    return new Promise((resolve) => {
      const finish = (ready: boolean) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        resolve(ready);
      };
      const onReady = () => finish(true);
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.client.once('ready', onReady);
    });
  }

  /** Whether commands should go to Redis now. */
  get usable(): boolean {
    return !this.#closed && this.client.status === 'ready' && Date.now() >= this.#pausedUntil;
  }

  /**
   * Runs `shared` against Redis when it is usable, else (or when it fails)
   * `local`, this instance's own limiter. Never throws for Redis' sake.
   */
  async run<T>(shared: () => Promise<T>, local: () => T | Promise<T>): Promise<T> {
    if (!this.usable) {
      this.#noteFailure(null);
      return local();
    }
    try {
      const result = await shared();
      this.#noteSuccess();
      return result;
    } catch (error) {
      this.#pausedUntil = Date.now() + this.#pauseAfterFailureMs;
      this.#noteFailure(error);
      return local();
    }
  }

  /** For the readiness check: resolves when Redis answers a PING. */
  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.client.quit();
    } catch {
      // Not connected: nothing to say goodbye to.
    }
    this.client.disconnect();
  }

  #noteSuccess(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.#logger.info(
      { redis: this.#where },
      'Redis answers again: rate and concurrency limits are shared by all instances',
    );
  }

  #noteFailure(error: unknown): void {
    if (this.#closed) return;
    const now = Date.now();
    const firstFailure = !this.#failing;
    this.#failing = true;
    if (!firstFailure && now - this.#lastWarningAt < this.#warnEveryMs) return;
    this.#lastWarningAt = now;
    this.#logger.warn(
      { redis: this.#where, ...(error ? { err: safeError(error) } : {}) },
      'Redis is unreachable: rate and concurrency limits are kept per instance until it answers again',
    );
  }
}

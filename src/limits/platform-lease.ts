import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { pgModule } from '../storage/pg-module.js';
import type { Logger } from 'pino';
import type { RedisLink } from './redis-link.js';

/**
 * Leases for connectors that must run on exactly one instance (long polling,
 * gateways). A lease is held while its holder keeps renewing it; `lost` is
 * aborted when the holder can no longer be sure it holds it, and the
 * connector stops. After the holder dies, another instance gets the lease
 * within its time to live (Redis) or as soon as the server notices the dead
 * connection (PostgreSQL advisory locks).
 */
export interface PlatformLease {
  readonly lost: AbortSignal;
  release(): Promise<void>;
}

export interface PlatformLeases {
  /** The lease named `name` if no instance holds it, else null. */
  tryAcquire(name: string): Promise<PlatformLease | null>;
  close(): Promise<void>;
}

/** Within one process (SQLite: one process owns the database). */
export class LocalPlatformLeases implements PlatformLeases {
  readonly #held = new Set<string>();

  async tryAcquire(name: string): Promise<PlatformLease | null> {
    if (this.#held.has(name)) return null;
    this.#held.add(name);
    const controller = new AbortController();
    return {
      lost: controller.signal,
      release: async () => {
        this.#held.delete(name);
      },
    };
  }

  async close(): Promise<void> {
    this.#held.clear();
  }
}

/** Renews only while the value is still ours: a lease another instance took over is never extended. */
const renewLua = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

/** Deletes only our own value (compare-and-delete). */
const releaseLua = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/** SET NX PX with a token per holder, renewed every third of its time to live. */
export class RedisPlatformLeases implements PlatformLeases {
  readonly #held = new Set<() => Promise<void>>();

  constructor(
    private readonly link: RedisLink,
    private readonly keyPrefix: string,
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {}

  async tryAcquire(name: string): Promise<PlatformLease | null> {
    const key = `${this.keyPrefix}platform-lease:${name}`;
    const token = randomBytes(12).toString('hex');
    const client = this.link.client;
    const set = await client.set(key, token, 'PX', this.ttlMs, 'NX').catch(() => null);
    if (set !== 'OK') return null;
    const controller = new AbortController();
    let renewedAt = Date.now();
    const renew = async () => {
      try {
        const renewed = await client.eval(renewLua, 1, key, token, String(this.ttlMs));
        if (Number(renewed) === 1) {
          renewedAt = Date.now();
          return;
        }
        controller.abort();
      } catch {
        // Redis away: the lease may still be ours until its time to live has passed since the last renewal.
        if (Date.now() - renewedAt >= this.ttlMs * 0.8) controller.abort();
      }
      if (controller.signal.aborted) {
        this.logger.warn({ lease: name }, 'platform lease lost');
        stop();
      }
    };
    const timer = setInterval(() => void renew(), Math.max(100, Math.floor(this.ttlMs / 3)));
    timer.unref();
    const stop = () => {
      clearInterval(timer);
      this.#held.delete(release);
    };
    const release = async () => {
      stop();
      controller.abort();
      await client.eval(releaseLua, 1, key, token).catch(() => undefined);
    };
    this.#held.add(release);
    return { lost: controller.signal, release };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#held].map((release) => release()));
  }
}

/**
 * PostgreSQL session-level advisory locks on one dedicated connection: the
 * server releases them when the connection ends, so a dead holder's leases
 * free as soon as its connection is gone. A failing connection loses every
 * lease on it; the next attempt opens a new one.
 */
export class PostgresPlatformLeases implements PlatformLeases {
  #client: pg.Client | null = null;
  #connecting: Promise<pg.Client> | null = null;
  readonly #held = new Map<string, AbortController>();
  readonly #checkTimer: NodeJS.Timeout;

  constructor(
    private readonly connectionString: string,
    private readonly logger: Logger,
    checkEveryMs: number,
  ) {
    // A connection that died silently is noticed here, and its leases are given up.
    this.#checkTimer = setInterval(() => {
      const client = this.#client;
      if (client === null || this.#held.size === 0) return;
      client.query('select 1').catch(() => this.#drop(client));
    }, checkEveryMs);
    this.#checkTimer.unref();
  }

  #drop(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = null;
    for (const controller of this.#held.values()) controller.abort();
    this.#held.clear();
    client.end().catch(() => undefined);
  }

  async #connection(): Promise<pg.Client> {
    if (this.#client !== null) return this.#client;
    this.#connecting ??= (async () => {
      const client = new (pgModule().Client)({ connectionString: this.connectionString, keepAlive: true });
      client.on('error', () => this.#drop(client));
      try {
        await client.connect();
      } catch (error) {
        client.end().catch(() => undefined);
        throw error;
      }
      this.#client = client;
      return client;
    })().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  async tryAcquire(name: string): Promise<PlatformLease | null> {
    if (this.#held.has(name)) return null;
    let client: pg.Client;
    try {
      client = await this.#connection();
      const result = await client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock(hashtextextended($1, 0)) as locked',
        [`agentd-platform:${name}`],
      );
      if (result.rows[0]?.locked !== true) return null;
    } catch (error) {
      this.logger.warn({ lease: name, error: (error as Error).message }, 'platform lease not taken: database error');
      return null;
    }
    const controller = new AbortController();
    this.#held.set(name, controller);
    return {
      lost: controller.signal,
      release: async () => {
        if (this.#held.get(name) !== controller) return;
        this.#held.delete(name);
        controller.abort();
        await client
          .query('select pg_advisory_unlock(hashtextextended($1, 0))', [`agentd-platform:${name}`])
          .catch(() => undefined);
      },
    };
  }

  async close(): Promise<void> {
    clearInterval(this.#checkTimer);
    for (const controller of this.#held.values()) controller.abort();
    this.#held.clear();
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }
}

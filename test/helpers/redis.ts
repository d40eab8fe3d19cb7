import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { unusedPort } from './network.js';
import { Redis } from 'ioredis';
import { redisUrl } from './environment.js';

/** A key prefix of its own, so tests sharing one Redis never see each other's keys. */
export function randomRedisPrefix(): string {
  return `agentd-test:${randomBytes(6).toString('hex')}:`;
}

/** A plain client on the test Redis, for looking at and cleaning up keys. */
export function inspectionClient(): Redis {
  return new Redis(redisUrl as string, { lazyConnect: false, maxRetriesPerRequest: 1 });
}

/** Deletes every key under `prefix`. */
export async function removeRedisKeys(prefix: string): Promise<void> {
  const client = inspectionClient();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/**
 * A TCP proxy in front of the test Redis that a test can take down and bring
 * back on the same port, or make swallow traffic, to play an outage.
 */
export class RedisProxy {
  #server: net.Server | null = null;
  readonly #sockets = new Set<net.Socket>();
  #mode: 'forward' | 'swallow' = 'forward';

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisProxy> {
    const proxy = new RedisProxy(await unusedPort());
    await proxy.up();
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const target = new URL(redisUrl as string);
    this.#mode = 'forward';
    this.#server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.on('data', (chunk) => {
        if (this.#mode === 'forward') upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        if (this.#mode === 'forward') client.write(chunk);
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.#server!.listen(this.port, '127.0.0.1', resolve));
  }

  /** Connected clients stay connected but get no answers (a hung server or a network partition). */
  swallow(): void {
    this.#mode = 'swallow';
  }

  /** Refuses new connections and cuts the open ones (Redis is down). */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

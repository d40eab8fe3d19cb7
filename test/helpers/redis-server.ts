import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { unusedPort } from './network.js';
import { waitFor } from './wait.js';

/**
 * A redis-server of its own on a free port, without persistence, for tests that
 * stop and start Redis: the shared test Redis is never touched.
 */
export const redisServerSkip =
  spawnSync('redis-server', ['--version']).status === 0 ? false : 'no redis-server binary on PATH';

export class RedisServer {
  #child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await unusedPort());
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts redis-server on the same port again and waits until it answers PING. */
  async start(): Promise<void> {
    this.#child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    const answered = await waitFor(async () => {
      try {
        if (probe.status !== 'ready') await probe.connect();
        return (await probe.ping()) === 'PONG';
      } catch {
        probe.disconnect();
        return false;
      }
    }, 10_000);
    probe.disconnect();
    if (answered === null) throw new Error(`redis-server did not answer on port ${this.port}`);
  }

  /** Stops the server (its clients see their connections close) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = null;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
}

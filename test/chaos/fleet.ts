import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';
import { randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * Three (or `size`) `agentd serve` processes on one PostgreSQL database and
 * one Redis prefix, behind a round-robin proxy. An instance killed with
 * SIGKILL is started again on the same settings (and its own data dir); the
 * proxy skips it while it is down and learns its new port when it is back.
 */
export interface Fleet {
  proxy: RoundRobinProxy;
  database: FreshDatabase;
  /** Reads the fleet's database directly (what the API does not show: claims, unfinished rows). */
  query(text: string, values?: unknown[]): Promise<any[]>;
  instances: Array<ServerProcess | null>;
  /** kill -9 of instance `index`; resolves once it has exited. */
  kill(index: number): Promise<void>;
  /** Starts instance `index` again (after a kill). */
  restart(index: number): Promise<void>;
  /** Instances of the fleet that are up now. */
  alive(): number;
  close(): Promise<void>;
}

export async function startFleet(options: {
  size: number;
  postgresUrl: string;
  redisUrl: string;
  environment: Record<string, string>;
}): Promise<Fleet> {
  const database = await createFreshDatabase(options.postgresUrl, 'agentd_chaos');
  const redisPrefix = randomRedisPrefix();
  const dataDirs = Array.from({ length: options.size }, () => fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-chaos-')));
  const shared = {
    ...options.environment,
    DATABASE_URL: database.url,
    REDIS_URL: options.redisUrl,
    AGENTD_REDIS_PREFIX: redisPrefix,
    AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
  };
  const environmentOf = (index: number) => ({ ...shared, AGENTD_DATA_DIR: dataDirs[index]! });
  const instances: Array<ServerProcess | null> = [];
  const proxy = await startRoundRobinProxy([]);
  try {
    // One after the other: the first migrates, and cold starts at once are slow on a busy machine.
    for (let index = 0; index < options.size; index += 1) {
      const server = await startServer(environmentOf(index), 60_000);
      instances.push(server);
      proxy.upstreams.push(server.url);
    }
  } catch (error) {
    await Promise.all(instances.map((instance) => instance?.stop('SIGKILL')));
    await proxy.close();
    await database.drop();
    throw error;
  }
  // Instances are children of this process: if it dies before `close`, they die with it rather than run on.
  const killAll = () => instances.forEach((instance) => instance?.child.kill('SIGKILL'));
  process.once('exit', killAll);
  const reader = new pg.Pool({ connectionString: database.url, max: 2 });
  return {
    proxy,
    database,
    query: async (text, values) => (await reader.query(text, values)).rows,
    instances,
    async kill(index) {
      const instance = instances[index];
      instances[index] = null;
      await instance?.stop('SIGKILL');
    },
    async restart(index) {
      if (instances[index] !== null) return;
      // A cold start under the load of the run, on a shared machine, has been seen to take over a minute.
      const server = await startServer(environmentOf(index), 180_000);
      instances[index] = server;
      proxy.upstreams[index] = server.url;
    },
    alive: () => instances.filter((instance) => instance !== null).length,
    async close() {
      process.off('exit', killAll);
      await Promise.all(instances.map((instance) => instance?.stop('SIGTERM', 10_000)));
      await proxy.close();
      await reader.end();
      await database.drop();
      await removeRedisKeys(redisPrefix);
      for (const directory of dataDirs) fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

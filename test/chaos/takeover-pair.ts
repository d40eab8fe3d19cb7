import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';
import { randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { mainScript, startServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * Two `agentd serve` processes on a fresh PostgreSQL database and one Redis
 * prefix. An instance killed with SIGKILL is started again on the same
 * settings; it comes back under a new instance id (none is configured), so
 * the runs it had are another instance's to take over.
 */
export interface InstancePair {
  database: FreshDatabase;
  query(text: string, values?: unknown[]): Promise<any[]>;
  instances: [ServerProcess | null, ServerProcess | null];
  /** Log lines of every process the pair started, killed ones included. */
  logs(): string[];
  kill(index: 0 | 1): Promise<void>;
  restart(index: 0 | 1): Promise<void>;
  close(): Promise<void>;
}

export async function startInstancePair(options: {
  postgresUrl: string;
  redisUrl: string;
  environment: Record<string, string>;
  /** Another build of `main.js` to run (kept current by the caller); default dist/. */
  script?: string;
}): Promise<InstancePair> {
  const database = await createFreshDatabase(options.postgresUrl, 'agentd_takeover');
  const redisPrefix = randomRedisPrefix();
  const dataDirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-takeover-')));
  const shared = {
    ...options.environment,
    DATABASE_URL: database.url,
    REDIS_URL: options.redisUrl,
    AGENTD_REDIS_PREFIX: redisPrefix,
    AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
  };
  const script = options.script ?? mainScript;
  const all: ServerProcess[] = [];
  const start = async (index: number, timeoutMs: number) => {
    const server = await startServer({ ...shared, AGENTD_DATA_DIR: dataDirs[index]! }, timeoutMs, { script });
    all.push(server);
    return server;
  };
  const instances: [ServerProcess | null, ServerProcess | null] = [null, null];
  try {
    // One after the other: the first migrates.
    instances[0] = await start(0, 60_000);
    instances[1] = await start(1, 60_000);
  } catch (error) {
    await Promise.all(instances.map((instance) => instance?.stop('SIGKILL')));
    await database.drop();
    throw error;
  }
  const killAll = () => instances.forEach((instance) => instance?.child.kill('SIGKILL'));
  process.once('exit', killAll);
  const reader = new pg.Pool({ connectionString: database.url, max: 2 });
  return {
    database,
    query: async (text, values) => (await reader.query(text, values)).rows,
    instances,
    logs: () => all.flatMap((server) => server.output().split('\n')),
    async kill(index) {
      const instance = instances[index];
      instances[index] = null;
      await instance?.stop('SIGKILL');
    },
    async restart(index) {
      if (instances[index] !== null) return;
      // A cold start on a machine the run shares with others can take long.
      instances[index] = await start(index, 180_000);
    },
    async close() {
      process.off('exit', killAll);
      await Promise.all(instances.map((instance) => instance?.stop('SIGTERM', 10_000)));
      await reader.end();
      await database.drop();
      await removeRedisKeys(redisPrefix);
      for (const directory of dataDirs) fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

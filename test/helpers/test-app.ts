import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createDependencies, type AppDeps, type CreateDepsOptions } from '../../src/dependencies.js';
import type { App } from '../../src/http/app-instance.js';
import { createLogger } from '../../src/logger.js';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { createAccount } from '../../src/services/accounts.js';
import { bootstrap, issueApiKey } from '../../src/services/api-keys.js';
import type { Scope } from '../../src/services/context.js';
import { captureLog, type CapturedLog } from './log-capture.js';
import { databaseUrl, postgresSkip, redisUrl } from './environment.js';
import { recordSecrets } from './known-secrets.js';
import { randomRedisPrefix, removeRedisKeys } from './redis.js';
import { suiteLogger } from './suite-log.js';

export type BackendName = 'sqlite' | 'postgres';

export interface Backend {
  name: BackendName;
  /** What the backend runs on, for test titles. */
  label: string;
  /** false to run, or the reason the backend's tests are skipped. */
  skip: string | false;
}

/**
 * SQLite (limits in process) always; PostgreSQL when DATABASE_URL points at
 * one, with limits on Redis as well when REDIS_URL is set: the deployment of
 * several instances.
 */
export const backends: Backend[] = [
  { name: 'sqlite', label: 'SQLite', skip: false },
  { name: 'postgres', label: redisUrl ? 'PostgreSQL + Redis' : 'PostgreSQL', skip: postgresSkip },
];

export interface TestAccount {
  accountId: string;
  keyId: string;
  key: string;
  /** Headers with this account's bearer key. */
  headers: Record<string, string>;
}

export interface TestApp {
  app: App;
  deps: AppDeps;
  config: Config;
  /** The bootstrap account (all scopes). */
  owner: TestAccount;
  /** A new account with its own key. */
  newAccount(scopes?: Scope[]): Promise<TestAccount>;
  /** A new key for an existing account. */
  newKey(accountId: string, scopes?: Scope[]): Promise<TestAccount>;
  inject(options: InjectOptions & { as?: TestAccount }): Promise<LightMyRequestResponse>;
  /** Creates an agent named Ava with `fields` over the API (failing the test unless it is created). */
  newAgent(fields?: Record<string, unknown>): Promise<any>;
  /** The captured log, with `captureLogs`. */
  logs: CapturedLog | null;
  close(): Promise<void>;
}

/** Rate limits high enough never to interfere, so every response still carries the headers. */
export const generousRateLimits =
  'createAgent=100000,listAgents=100000,getAgent=100000,updateAgent=100000,deleteAgent=100000,' +
  'sendMessage=100000,listMessages=100000,deleteConversation=100000,manageKeys=100000,listPlugins=100000,listEvents=100000,manageWebhooks=100000,readMetrics=100000,' +
  'readKnowledgeBases=100000,writeKnowledgeBases=100000,searchKnowledgeBases=100000,readRuns=100000,cancelRuns=100000,manageTasks=100000,readApprovals=100000,decideApprovals=100000,readFiles=100000,' +
  'readEvals=100000,writeEvals=100000,' +
  'sendMessageConcurrency=1000';

export interface TestAppOptions {
  backend?: BackendName;
  /** Extra environment, e.g. AGENTD_RATE_LIMITS or provider variables. */
  env?: Record<string, string>;
  clock?: Clock;
  /** Keeps every log line (at debug level) in `logs` instead of discarding logs. */
  captureLogs?: boolean;
  /** Redis timings for tests that play with an outage. */
  limits?: CreateDepsOptions['limits'];
  /** Plugins offered besides the built-in ones. */
  extraPlugins?: CreateDepsOptions['extraPlugins'];
  /** Starts the platform supervisor, as `agentd serve` does (off by default: most tests need no connectors). */
  platforms?: boolean;
}

/**
 * A schema of its own on the shared PostgreSQL, so test files never see each other's rows.
 *
 * Under the test runner (AGENTD_TEST_RUN set) schemas are dropped by the runner once every file has
 * finished, not by each file: Kysely's migrator lists the tables of every schema of the database, and
 * a schema dropped while another file's app is migrating fails that listing ("schema … does not exist").
 */
async function createPostgresSchema(): Promise<{ name: string; drop(): Promise<void> }> {
  const run = process.env.AGENTD_TEST_RUN;
  const name = `test_${run ? `${run}_` : ''}${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`create schema ${name}`);
  await client.end();
  return {
    name,
    async drop() {
      if (run) return;
      const cleanup = new pg.Client({ connectionString: databaseUrl });
      await cleanup.connect();
      await cleanup.query(`drop schema if exists ${name} cascade`);
      await cleanup.end();
    },
  };
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const backend = options.backend ?? 'sqlite';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-test-'));
  const bootstrapKey = generateApiKey();
  const secretKey = randomBytes(32).toString('hex');
  recordSecrets(secretKey);
  const schema = backend === 'postgres' ? await createPostgresSchema() : null;
  // Each app has keys of its own in the shared Redis, removed when it closes.
  const redisPrefix = backend === 'postgres' && redisUrl ? randomRedisPrefix() : null;
  const env: Record<string, string> = {
    AGENTD_DATA_DIR: dataDir,
    AGENTD_SECRET_KEY: secretKey,
    AGENTD_BOOTSTRAP_KEY: bootstrapKey,
    AGENTD_RATE_LIMITS: generousRateLimits,
    LOG_LEVEL: 'silent',
    AGENTD_BUILTIN_WORD_DELAY_MS: '0',
    // Connectors never reach the real platforms from a test: a closed loopback port unless the test says.
    AGENTD_TELEGRAM_API_URL: 'http://127.0.0.1:9',
    AGENTD_SLACK_API_URL: 'http://127.0.0.1:9/api/',
    AGENTD_DISCORD_API_URL: 'http://127.0.0.1:9/api',
    AGENTD_X_API_URL: 'http://127.0.0.1:9',
    AGENTD_BLUESKY_SERVICE_URL: 'http://127.0.0.1:9',
    ...(backend === 'postgres' ? { DATABASE_URL: databaseUrl as string, AGENTD_DATABASE_POOL_SIZE: '5' } : {}),
    ...(redisPrefix ? { REDIS_URL: redisUrl as string, AGENTD_REDIS_PREFIX: redisPrefix } : {}),
    ...options.env,
  };
  const removeData = async () => {
    await schema?.drop();
    if (redisPrefix) await removeRedisKeys(redisPrefix);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const config = loadConfig(env);
  const logs = options.captureLogs ? captureLog() : null;
  const logger = logs?.logger ?? suiteLogger() ?? createLogger(config.logLevel);
  let deps: AppDeps | undefined;
  let app: App;
  let first;
  try {
    deps = await createDependencies(config, {
      logger,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(schema ? { database: { searchPath: schema.name } } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.extraPlugins ? { extraPlugins: options.extraPlugins } : {}),
    });
    first = await bootstrap({ deps: deps.services, bootstrapKey });
    if (!first) throw new Error('bootstrap did not run on a fresh database');
    app = await buildApp({ config, deps });
    if (options.platforms) await deps.platforms.supervisor.start();
  } catch (error) {
    // A test app that fails to start leaves nothing behind either.
    await deps?.close();
    await removeData();
    throw error;
  }

  const account = (accountId: string, keyId: string, key: string): TestAccount => ({
    accountId,
    keyId,
    key,
    headers: { authorization: `Bearer ${key}` },
  });
  const owner = account(first.accountId, first.keyId, bootstrapKey);

  return {
    app,
    deps,
    config,
    owner,
    logs,
    async newAccount(scopes) {
      const created = await createAccount({ deps: deps.services, input: { name: 'test account' } });
      const issued = await issueApiKey({
        deps: deps.services,
        input: { accountId: created.id, ...(scopes ? { scopes } : {}) },
      });
      return account(created.id, issued.id, issued.key);
    },
    async newKey(accountId, scopes) {
      const issued = await issueApiKey({ deps: deps.services, input: { accountId, ...(scopes ? { scopes } : {}) } });
      return account(accountId, issued.id, issued.key);
    },
    inject({ as, ...request }) {
      const caller = as ?? owner;
      return app.inject({ ...request, headers: { ...caller.headers, ...request.headers } });
    },
    async newAgent(fields = {}) {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/agents',
        headers: owner.headers,
        payload: { name: 'Ava', ...fields },
      });
      if (response.statusCode !== 201)
        throw new Error(`creating an agent answered ${response.statusCode}: ${response.body}`);
      return response.json();
    },
    async close() {
      await app.close();
      await deps.close();
      await removeData();
    },
  };
}

/** A settable clock for limits and expiries. */
export class ManualClock implements Clock {
  constructor(private current = Date.parse('2026-11-22T10:00:00.000Z')) {}
  now(): number {
    return this.current;
  }
  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
}

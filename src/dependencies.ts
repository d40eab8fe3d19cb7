import type { Logger } from 'pino';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { ConcurrencyLimiter } from './limits/concurrency-limiter.js';
import { MemoryConcurrencyLimiter } from './limits/memory-concurrency-limiter.js';
import { MemoryRateLimiter } from './limits/memory-rate-limiter.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import { ProviderCatalog } from './providers/catalog.js';
import { ModelGateway } from './providers/model-gateway.js';
import { createModelAdapters } from './providers/registry.js';
import type { ReadinessCheck } from './routes/ops/health.js';
import { loadOrCreateSecretKey } from './secret-key.js';
import { SecretBox } from './security/secret-box.js';
import type { ServiceDeps } from './services/context.js';
import { openDatabase, type DatabaseHandle, type OpenDatabaseOptions } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';
import { createRepositories } from './storage/repositories/index.js';

/** Everything the app is built from; tests build their own with fakes where they need them. */
export interface AppDeps {
  database: DatabaseHandle;
  services: ServiceDeps;
  rateLimiter: RateLimiter;
  concurrencyLimiter: ConcurrencyLimiter;
  readiness: ReadinessCheck[];
  close(): Promise<void>;
}

export interface CreateDepsOptions {
  logger: Logger;
  clock?: Clock;
  database?: OpenDatabaseOptions;
}

export async function createDependencies(config: Config, options: CreateDepsOptions): Promise<AppDeps> {
  const clock = options.clock ?? systemClock;
  const providers = new ProviderCatalog(config);
  const { key, created } = loadOrCreateSecretKey(config.secretKey, config.dataDir);
  if (created) options.logger.warn({ dataDir: config.dataDir }, 'generated a new secret key for agent secrets in the data directory');

  const database = openDatabase(config.database, options.database);
  try {
    const applied = await migrateToLatest(database);
    if (applied.length > 0) options.logger.info({ migrations: applied }, 'database migrated');
  } catch (error) {
    await database.close();
    throw error;
  }

  const rateLimiter = new MemoryRateLimiter(clock);
  const concurrencyLimiter = new MemoryConcurrencyLimiter();
  const services: ServiceDeps = {
    repositories: createRepositories(database.db, database.dialect),
    secretBox: new SecretBox(key),
    clock,
    providers,
    logger: options.logger,
    allowAgentModelKeys: config.allowAgentModelKeys,
    models: new ModelGateway(
      createModelAdapters(config.providers, { builtinWordDelayMs: config.builtinWordDelayMs }),
      {
        timeoutMs: config.providerTimeoutMs,
        maxRetries: 2,
        retryDelayMs: config.providerRetryDelayMs,
        circuit: config.circuitBreaker,
      },
      clock,
      options.logger,
    ),
    concurrencyLimiter,
    messageConcurrency: config.rateLimits?.sendMessageConcurrency ?? null,
  };

  return {
    database,
    services,
    rateLimiter,
    concurrencyLimiter,
    readiness: [
      {
        name: 'database',
        required: true,
        check: async () => {
          await database.ping();
          return 'ok';
        },
      },
    ],
    async close() {
      await rateLimiter.close();
      await concurrencyLimiter.close();
      await database.close();
    },
  };
}

import type { Logger } from 'pino';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { GracefulShutdown } from './http/graceful-shutdown.js';
import type { ConcurrencyLimiter } from './limits/concurrency-limiter.js';
import { createLimits, type CreateLimitsOptions } from './limits/limits.js';
import type { RedisLink } from './limits/redis-link.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import { ProviderCatalog } from './providers/catalog.js';
import { ModelGateway } from './providers/model-gateway.js';
import { createModelAdapters } from './providers/registry.js';
import { findKnowledge } from './conversation/build-prompt.js';
import { builtinPlugins } from './plugins/builtin.js';
import { PluginCatalog } from './plugins/catalog.js';
import { createOutboundFetch } from './outbound/outbound-fetch.js';
import type { AnyPluginDefinition, FetchFunction } from './plugins/plugin.js';
import { AgentToolsets } from './plugins/toolsets.js';
import type { ReadinessCheck } from './routes/ops/health.js';
import { loadOrCreateSecretKey } from './secret-key.js';
import { SecretBox } from './security/secret-box.js';
import type { ServiceDeps } from './services/context.js';
import { openDatabase, type DatabaseHandle, type OpenDatabaseOptions } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';
import { createRepositories } from './storage/repositories/index.js';
import { MemoryWorker } from './services/memory/memory-worker.js';

/** Everything the app is built from; tests build their own with fakes where they need them. */
export interface AppDeps {
  database: DatabaseHandle;
  services: ServiceDeps;
  rateLimiter: RateLimiter;
  concurrencyLimiter: ConcurrencyLimiter;
  readiness: ReadinessCheck[];
  /** The drain on SIGTERM; long-running responses register their streams with it. */
  shutdown: GracefulShutdown;
  close(): Promise<void>;
}

export interface CreateDepsOptions {
  logger: Logger;
  clock?: Clock;
  database?: OpenDatabaseOptions;
  /** Redis timings (lease refresh, fallback pauses), shortened by tests. */
  limits?: Pick<CreateLimitsOptions, 'redis' | 'connectWaitMs'>;
  /** Plugins offered besides the built-in ones (tests add plugins of their own). */
  extraPlugins?: readonly AnyPluginDefinition[];
}

export async function createDependencies(config: Config, options: CreateDepsOptions): Promise<AppDeps> {
  const clock = options.clock ?? systemClock;
  const providers = new ProviderCatalog(config);
  const { key, created } = loadOrCreateSecretKey(config.secretKey, config.dataDir);
  if (created) {
    options.logger.warn(
      { file: `${config.dataDir}/secret.key` },
      'generated the key that encrypts agent secrets; back it up with the database (without it, stored secrets cannot be read)',
    );
  }

  const database = openDatabase(config.database, { logger: options.logger, ...options.database });
  try {
    const applied = await migrateToLatest(database);
    if (applied.length > 0) options.logger.info({ migrations: applied }, 'database migrated');
  } catch (error) {
    await database.close();
    throw error;
  }

  let limits;
  try {
    limits = await createLimits(config, { logger: options.logger, clock, ...options.limits });
  } catch (error) {
    await database.close();
    throw error;
  }
  const repositories = createRepositories(database);
  const secretBox = new SecretBox(key);
  const catalog = new PluginCatalog([...builtinPlugins, ...(options.extraPlugins ?? [])]);
  const outboundFetch: FetchFunction = createOutboundFetch({
    allowPrivateAddresses: config.outbound.allowPrivateAddresses,
  });
  const toolsets = new AgentToolsets({
    catalog,
    secretBox,
    logger: options.logger,
    contextFor: (agent) => ({
      agentId: agent.id,
      accountId: agent.accountId,
      fetch: outboundFetch,
      searchKnowledge: (query, limit) => findKnowledge(repositories, agent, query, limit),
      clock,
      logger: options.logger,
    }),
  });
  const models = new ModelGateway(
    createModelAdapters(config.providers, { builtinWordDelayMs: config.builtinWordDelayMs }),
    {
      timeoutMs: config.providerTimeoutMs,
      maxRetries: 2,
      retryDelayMs: config.providerRetryDelayMs,
      circuit: config.circuitBreaker,
    },
    clock,
    options.logger,
  );
  const memory = new MemoryWorker({ repositories, models, secretBox, clock, logger: options.logger });
  const services: ServiceDeps = {
    repositories,
    secretBox,
    clock,
    providers,
    logger: options.logger,
    allowAgentModelKeys: config.allowAgentModelKeys,
    models,
    concurrencyLimiter: limits.concurrencyLimiter,
    messageConcurrency: config.rateLimits?.sendMessageConcurrency ?? null,
    openStreamsPerAccount: config.maxOpenStreamsPerAccount,
    plugins: { catalog, toolsets, limits: config.tools },
    eventRetentionDays: config.eventRetentionDays,
    memory,
  };

  return {
    database,
    services,
    rateLimiter: limits.rateLimiter,
    concurrencyLimiter: limits.concurrencyLimiter,
    readiness: readinessChecks(database, limits.redis),
    shutdown: new GracefulShutdown(options.logger),
    async close() {
      await memory.close();
      await toolsets.close();
      await limits.close();
      await database.close();
    },
  };
}

function readinessChecks(database: DatabaseHandle, redis: RedisLink | null): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [
    {
      name: 'database',
      required: true,
      check: async () => {
        await database.ping();
        return 'ok';
      },
    },
  ];
  if (redis !== null) {
    // Not required: without Redis the instance serves on with per-instance limits
    // (reported as `degraded`), so a load balancer keeps sending it traffic.
    checks.push({
      name: 'redis',
      required: false,
      check: async () => {
        await redis.ping();
        return 'ok';
      },
    });
  }
  return checks;
}

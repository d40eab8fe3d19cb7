import { takeOverRun } from './services/runs/take-over-run.js';
import { RunRuntime } from './services/runs/run-runtime.js';
import { ApprovalRuntime } from './services/approvals/approval-runtime.js';
import { EvalRuntime } from './services/evals/eval-runtime.js';
import { expireApprovals } from './services/approvals/approvals.js';
import type { Logger } from 'pino';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { GracefulShutdown } from './http/graceful-shutdown.js';
import type { ConcurrencyLimiter } from './limits/concurrency-limiter.js';
import { createLimits, type CreateLimitsOptions } from './limits/limits.js';
import type { RedisLink } from './limits/redis-link.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import { ProviderCatalog } from './providers/catalog.js';
import { ModelCallMetrics } from './providers/model-call-metrics.js';
import { ModelGateway } from './providers/model-gateway.js';
import { createPriceTable } from './providers/prices.js';
import type { ModelAdapter } from './providers/model-adapter.js';
import { createModelAdapters } from './providers/registry.js';
import { disabledAgentMetrics, RollupRecorder, type AgentMetricsRecorder } from './events/agent-metrics-recorder.js';
import { findKnowledge } from './conversation/build-prompt.js';
import { builtinPlatforms } from './platforms/builtin.js';
import { PlatformCatalog } from './platforms/catalog.js';
import type { AnyPlatformDefinition } from './platforms/platform.js';
import {
  LocalPlatformLeases,
  PostgresPlatformLeases,
  RedisPlatformLeases,
  type PlatformLeases,
} from './limits/platform-lease.js';
import { createPlatformRuntime, newInstanceId, type PlatformRuntime } from './services/platforms/platform-runtime.js';
import { builtinPlugins } from './plugins/builtin.js';
import { PluginCatalog } from './plugins/catalog.js';
import { createOutboundFetch } from './outbound/outbound-fetch.js';
import type { AnyPluginDefinition, FetchFunction } from './plugins/plugin.js';
import { AgentToolsets } from './plugins/toolsets.js';
import { spendingLedger } from './plugins/spending-ledger.js';
import { recordAgentEvent } from './events/agent-events.js';
import { ToolError, type PluginImages } from './plugins/plugin.js';
import { attachmentOf, DatabaseFileStore, isRefusal, type FileStore } from './files/file-store.js';
import { fileFolderOf, startFileSweep } from './files/file-sweep.js';
import { FolderFileStore } from './files/folder-file-store.js';
import { createImageModelFactory } from './providers/image-models.js';
import type { AgentRecord } from './storage/repositories/agents.js';
import type { ReadinessCheck } from './routes/ops/health.js';
import { loadOrCreateSecretKey } from './secret-key.js';
import { SecretBox } from './security/secret-box.js';
import type { ServiceDeps } from './services/context.js';
import { openDatabase, type DatabaseHandle, type OpenDatabaseOptions } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';
import { createRepositories } from './storage/repositories/index.js';
import { WebhookDispatcher } from './events/webhook-dispatcher.js';
import { WebhookOutbox } from './events/webhook-outbox.js';
import { tracedModelAdapter } from './tracing/model-spans.js';
import type { Tracing } from './tracing/tracing.js';
import { KnowledgeRetrieval } from './conversation/knowledge-retrieval.js';
import { recallSourceOf } from './conversation/memory/recall.js';
import { createEmbeddings } from './providers/embeddings.js';
import { KnowledgeIngestion } from './services/knowledge-bases/ingestion.js';
import { MemoryWorker } from './services/memory/memory-worker.js';
import { TaskScheduler } from './services/tasks/scheduler.js';

/** Everything the app is built from; tests build their own with fakes where they need them. */
export interface AppDeps {
  database: DatabaseHandle;
  services: ServiceDeps;
  rateLimiter: RateLimiter;
  concurrencyLimiter: ConcurrencyLimiter;
  readiness: ReadinessCheck[];
  /** The drain on SIGTERM; long-running responses register their streams with it. */
  shutdown: GracefulShutdown;
  /** Platform connectors: started by `serve` (and tests that want them) with `platforms.supervisor.start()`. */
  platforms: PlatformRuntime;
  /** OpenTelemetry tracing, when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  tracing: Tracing | null;
  /** Model calls by provider and outcome, for the Prometheus endpoint. */
  modelCalls: ModelCallMetrics;
  /** Scheduled tasks: started by `serve` (and tests that want it) with `tasks.start()`; runs tasks now. */
  tasks: TaskScheduler;
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
  /** Platform connectors offered besides the built-in ones. */
  extraPlatforms?: readonly AnyPlatformDefinition[];
  /** false for one-off commands: they write no events and must not take deliveries over. Default true. */
  dispatchWebhooks?: boolean;
  /**
   * Whether this process works in the background (default true): the runs' heartbeat and its sweep of
   * stopped instances' runs (with the expiry of approvals), knowledge ingestion, the image file sweep, and
   * the agent metrics' flush with its removal of rows past their retention.
   * The administration commands (migrate, accounts, keys) run without: they produce no runs and count no
   * messages, and a process without background work must not produce runs (with no heartbeat of its own,
   * any other instance's sweep ends them).
   */
  backgroundWork?: boolean;
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

  // Loaded only when configured: without an endpoint no OpenTelemetry module is even imported.
  const tracing =
    config.tracing === null
      ? null
      : await import('./tracing/tracing.js').then(({ startTracing }) => startTracing(config.tracing!, options.logger));
  const database = openDatabase(config.database, { logger: options.logger, ...options.database, tracing });
  // On SQLite, large knowledge collections are searched through an HNSW graph saved beside the database file.
  const repositories = createRepositories(
    database,
    config.embeddings?.dimensions ?? null,
    config.database.kind === 'sqlite'
      ? {
          databaseFile: config.database.file === ':memory:' ? null : config.database.file,
          onError: (error, action) =>
            options.logger.warn({ err: error, action }, 'knowledge vector graph: searching exactly meanwhile'),
        }
      : null,
  );
  try {
    const applied = await migrateToLatest(database);
    if (applied.length > 0) options.logger.info({ migrations: applied }, 'database migrated');
    // With embeddings, the vector indexes (and on PostgreSQL the pgvector extension) must exist.
    await repositories.knowledgeBases.vectors?.ensure();
    await repositories.memoryVectors?.ensure();
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
  const secretBox = new SecretBox(key);
  const catalog = new PluginCatalog([...builtinPlugins, ...(options.extraPlugins ?? [])]);
  const outboundFetch: FetchFunction = createOutboundFetch({
    allowPrivateAddresses: config.outbound.allowPrivateAddresses,
  });
  const outbox = new WebhookOutbox(repositories, config.webhooks.enabled);
  const folderStore =
    config.database.kind === 'sqlite' && config.database.file !== ':memory:'
      ? new FolderFileStore(
          repositories.files,
          config.files.maxImageBytes,
          () => clock.now(),
          fileFolderOf(config.database.file),
          (paths) => database.syncBeforeCheckpoint(paths),
        )
      : null;
  const files: FileStore =
    folderStore ?? new DatabaseFileStore(repositories.files, config.files.maxImageBytes, () => clock.now());
  const fileSweep =
    folderStore && options.backgroundWork !== false ? startFileSweep(folderStore, options.logger) : null;
  const imageModels = createImageModelFactory(config.providers, outboundFetch);
  const pluginImages = (agent: AgentRecord): PluginImages => ({
    model: imageModels,
    async save(images) {
      const checked = images.map((bytes) => {
        const result = files.check(bytes);
        if (!isRefusal(result)) return result;
        throw new ToolError(
          result.reason === 'too-large'
            ? `The image API sent an image larger than this server keeps (${result.maxBytes} bytes).`
            : 'The image API sent something that is not a png, jpeg, webp or gif image.',
        );
      });
      await files.save({ accountId: agent.accountId, agentId: agent.id }, checked, 'tool');
      return checked.map(attachmentOf);
    },
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
      spending: spendingLedger(repositories.transferTotals, agent.id, clock),
      recordEvent: async (type, data) => {
        const writer = { events: repositories.agentEvents, clock, actor: 'service' as const, requestId: null, outbox };
        await recordAgentEvent(writer, agent, type, data, repositories.db);
        outbox.committed();
      },
      images: pluginImages(agent),
    }),
  });
  const dispatcher =
    config.webhooks.enabled && config.webhooks.deliver && options.dispatchWebhooks !== false
      ? new WebhookDispatcher({
          webhooks: repositories.webhooks,
          deliveries: repositories.webhookDeliveries,
          secretBox,
          // Its own client: webhook targets are user-given URLs, checked like every other such call.
          fetch: createOutboundFetch({ allowPrivateAddresses: config.outbound.allowPrivateAddresses }),
          clock,
          logger: options.logger,
          settings: config.webhooks,
        })
      : null;
  if (dispatcher !== null) {
    outbox.onCommitted = () => dispatcher.wake();
    dispatcher.start();
  }
  const agentMetrics: AgentMetricsRecorder =
    config.agentMetrics.enabled && options.backgroundWork !== false
      ? new RollupRecorder({
          repository: repositories.agentMetrics,
          clock,
          logger: options.logger,
          flushMs: config.agentMetrics.flushMs,
          retentionDays: config.agentMetrics.retentionDays,
        })
      : disabledAgentMetrics;
  const modelCalls = new ModelCallMetrics();
  const embeddings = createEmbeddings(config.embeddings);
  const ingestion =
    options.backgroundWork === false
      ? null
      : new KnowledgeIngestion({
          repository: repositories.knowledgeBases,
          embeddings,
          clock,
          logger: options.logger,
          leaseMs: config.knowledge.leaseMs,
          pollMs: config.knowledge.pollMs,
        });
  const models = new ModelGateway(
    tracedAdapters(
      await createModelAdapters(config.providers, { builtinWordDelayMs: config.builtinWordDelayMs }),
      tracing,
    ),
    {
      timeoutMs: config.providerTimeoutMs,
      maxRetries: 2,
      retryDelayMs: config.providerRetryDelayMs,
      circuit: config.circuitBreaker,
    },
    clock,
    options.logger,
    modelCalls,
  );
  const memory = new MemoryWorker({
    repositories,
    embeddings,
    models,
    secretBox,
    clock,
    logger: options.logger,
    outbox,
    agentMetrics,
  });
  const runs = new RunRuntime({
    db: repositories.db,
    runs: repositories.runs,
    runSteps: repositories.runSteps,
    approvals: repositories.approvals,
    clock,
    logger: options.logger,
    instanceId: config.platforms.instanceId ?? newInstanceId(),
    settings: config.runs,
  });
  const approvals = new ApprovalRuntime(options.logger);
  const services: ServiceDeps = {
    repositories,
    tracing,
    secretBox,
    clock,
    providers,
    logger: options.logger,
    allowAgentModelKeys: config.allowAgentModelKeys,
    models,
    prices: createPriceTable(config.modelPrices),
    concurrencyLimiter: limits.concurrencyLimiter,
    messageConcurrency: config.rateLimits?.sendMessageConcurrency ?? null,
    openStreamsPerAccount: config.maxOpenStreamsPerAccount,
    plugins: { catalog, toolsets, limits: config.tools, fetch: outboundFetch },
    platforms: {
      catalog: new PlatformCatalog([...builtinPlatforms, ...(options.extraPlatforms ?? [])]),
      instanceId: runs.instanceId,
    },
    eventRetentionDays: config.eventRetentionDays,
    webhooks: { outbox, allowPrivateTargets: config.outbound.allowPrivateAddresses },
    agentMetrics,
    knowledge: {
      retrieval: new KnowledgeRetrieval(repositories.knowledgeBases, embeddings, options.logger),
      ingestion,
      fetch: outboundFetch,
      maxDocumentBytes: config.knowledge.maxDocumentBytes,
    },
    memory,
    files: { store: files, fetch: outboundFetch },
    recall: recallSourceOf(repositories, embeddings, options.logger),
    runs,
    approvals,
  };
  // Approvals past their expiry are settled at every heartbeat, on every instance (one wins each).
  runs.onBeat(() => expireApprovals(services));
  // Evals nobody runs (new, or their instance stopped) are claimed at every heartbeat, on every instance (one wins each).
  const evals = options.backgroundWork !== false ? new EvalRuntime(services) : null;
  if (evals !== null) {
    services.evals = evals;
    runs.onBeat(() => evals.beat());
  }
  ingestion?.start();
  const platforms = createPlatformRuntime({
    deps: services,
    rateLimiter: limits.rateLimiter,
    rateLimits: config.rateLimits,
    settings: config.platforms,
    fetch: outboundFetch,
    leases: platformLeases(config, limits.redis, options.logger),
  });
  const tasks = new TaskScheduler({ deps: services, platforms, settings: config.tasks });
  approvals.attach(services, platforms);
  // A run whose instance stopped is continued here once this instance's sweep claims it.
  runs.onTakeOver((row) => takeOverRun({ deps: services, tasks, approvals }, row));
  if (options.backgroundWork !== false) runs.start();

  return {
    database,
    services,
    rateLimiter: limits.rateLimiter,
    concurrencyLimiter: limits.concurrencyLimiter,
    readiness: readinessChecks(database, limits.redis),
    shutdown: new GracefulShutdown(options.logger),
    platforms,
    tracing,
    modelCalls,
    tasks,
    async close() {
      // First: task runs in progress still need the model, the database and the connectors.
      await tasks.stop(Math.min(config.shutdownTimeoutMs, 5_000));
      // Evals stop before the runs they wait on; their rows stay running for another instance to go on with.
      await evals?.close();
      // Then: the runs still going store how they ended while everything they need is open.
      await runs.close();
      await approvals.close();
      await memory.close();
      await platforms.close();
      await dispatcher?.stop();
      // While the database is still open: what was gathered since the last flush is written.
      await agentMetrics.close();
      await ingestion?.close();
      await toolsets.close();
      await limits.close();
      await repositories.knowledgeBases.vectors?.close();
      await fileSweep?.stop();
      await database.close();
      await tracing?.shutdown();
    },
  };
}

/**
 * Where polling connectors' leases live: Redis when limits are shared there,
 * else PostgreSQL advisory locks, else (SQLite: one process) this process.
 */
function platformLeases(config: Config, redis: RedisLink | null, logger: Logger): PlatformLeases {
  if (redis !== null && config.redis !== null) {
    return new RedisPlatformLeases(redis, config.redis.keyPrefix, config.platforms.leaseMs, logger);
  }
  if (config.database.kind === 'postgres') {
    return new PostgresPlatformLeases(
      config.database.url,
      logger,
      Math.max(500, Math.floor(config.platforms.leaseMs / 3)),
    );
  }
  return new LocalPlatformLeases();
}

function tracedAdapters<Name>(adapters: Map<Name, ModelAdapter>, tracing: Tracing | null): Map<Name, ModelAdapter> {
  if (tracing === null) return adapters;
  return new Map([...adapters].map(([name, adapter]) => [name, tracedModelAdapter(adapter, String(name), tracing)]));
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

import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The whole environment of agentd, read once at start-up. Every variable is
 * declared here with its parser; nothing else in the code reads process.env.
 * An invalid value stops start-up with one line that names the variable
 * (never its value: several of them are credentials).
 */

export const rateLimitNames = [
  'createAgent',
  'listAgents',
  'getAgent',
  'updateAgent',
  'deleteAgent',
  'sendMessage',
  'listMessages',
  'deleteConversation',
  'manageKeys',
  'listPlugins',
  'listEvents',
  'manageWebhooks',
  'readMetrics',
  'readKnowledgeBases',
  'writeKnowledgeBases',
  'searchKnowledgeBases',
  'readRuns',
  'cancelRuns',
  'manageTasks',
  'readApprovals',
  'decideApprovals',
  'readFiles',
  'readEvals',
  'writeEvals',
] as const;
export type RateLimitName = (typeof rateLimitNames)[number];

export interface RateLimitSettings {
  /** Requests per minute for each operation. */
  perMinute: Record<RateLimitName, number>;
  /** Message requests in flight per agent. */
  sendMessageConcurrency: number;
}

export const defaultRateLimits: RateLimitSettings = {
  perMinute: {
    createAgent: 10,
    listAgents: 60,
    getAgent: 60,
    updateAgent: 30,
    deleteAgent: 10,
    sendMessage: 60,
    listMessages: 60,
    deleteConversation: 30,
    manageKeys: 30,
    listPlugins: 60,
    listEvents: 60,
    manageWebhooks: 60,
    readMetrics: 60,
    readKnowledgeBases: 60,
    writeKnowledgeBases: 60,
    searchKnowledgeBases: 60,
    readRuns: 120,
    cancelRuns: 30,
    manageTasks: 30,
    readApprovals: 120,
    decideApprovals: 60,
    readFiles: 300,
    readEvals: 120,
    writeEvals: 30,
  },
  sendMessageConcurrency: 10,
};

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolSize: number };

export interface ProviderEnvironment {
  openai: { apiKey: string; baseUrl: string | null } | null;
  anthropic: { apiKey: string; baseUrl: string | null } | null;
  openaiCompatible: { baseUrl: string; apiKey: string | null } | null;
  ollama: { baseUrl: string } | null;
}

export const embeddingProviders = ['openai', 'openai-compatible', 'ollama'] as const;
export type EmbeddingProviderName = (typeof embeddingProviders)[number];

/** The embedding model knowledge bases use; null: retrieval is full text only. */
export interface EmbeddingsConfig {
  provider: EmbeddingProviderName;
  model: string;
  baseUrl: string | null;
  apiKey: string | null;
  /** Length of every vector: the vector index is built for it. */
  dimensions: number;
  /** Texts per embedding request, and requests in flight at once to the provider. */
  batchSize: number;
  concurrency: number;
}

/** Knowledge bases: document size cap and the ingestion jobs' timings. */
export interface KnowledgeConfig {
  /** Largest document accepted (upload, JSON content, or fetched URL), in bytes. */
  maxDocumentBytes: number;
  /** How long a claimed ingestion job stays claimed without being renewed; then another instance takes it. */
  leaseMs: number;
  /** Pause between looks for new ingestion jobs when none is waiting. */
  pollMs: number;
}

/** One model's price, as AGENTD_MODEL_PRICES gives it (the shape of ModelPrice in src/providers/prices.ts). */
export interface ModelPriceSetting {
  inputPerMillion: number;
  cachedInputPerMillion?: number;
  outputPerMillion: number;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  /** Shared limits; `leaseMs` is how long a concurrency slot outlives an instance that stopped refreshing it. */
  redis: { url: string; keyPrefix: string; leaseMs: number } | null;
  /** 32-byte key for agent secrets; null means "load or generate it in the data dir" (embedded mode only). */
  secretKey: Buffer | null;
  bootstrapKey: string | null;
  /** null when limits are switched off with AGENTD_RATE_LIMITS=off. */
  rateLimits: RateLimitSettings | null;
  /**
   * Streamed replies open at once for one account, over all its agents and every instance. Each holds a
   * connection, a model call and memory for as long as it runs; AGENTD_RATE_LIMITS=off leaves this bound on.
   */
  maxOpenStreamsPerAccount: number;
  defaultModel: { provider: string; name: string } | null;
  providers: ProviderEnvironment;
  /**
   * Prices per million tokens (US dollars) by provider and model, merged over the defaults of
   * src/providers/prices.ts (AGENTD_MODEL_PRICES: inline JSON, or the path of a JSON file).
   */
  modelPrices: Record<string, Record<string, ModelPriceSetting>>;
  allowAgentModelKeys: boolean;
  /** Whether calls to user-given URLs may reach loopback, private and link-local addresses (src/outbound/). */
  outbound: { allowPrivateAddresses: boolean };
  providerTimeoutMs: number;
  /** First pause before retrying a failed model call; doubled for the next retry. */
  providerRetryDelayMs: number;
  circuitBreaker: { failureThreshold: number; openMs: number };
  bodyLimitBytes: number;
  /** Images (sent with messages, made by tools): the most bytes one may have (AGENTD_MAX_IMAGE_BYTES). */
  files: { maxImageBytes: number };
  /** Bounds on what one client connection may hold: see httpBounds below and SECURITY.md (API4). */
  http: HttpBounds;
  /** Interval of `: keep-alive` comments while a streamed reply's model is silent. */
  sseKeepAliveMs: number;
  /** Pause between the builtin model's streamed words. */
  builtinWordDelayMs: number;
  shutdownTimeoutMs: number;
  /** Limits of one tool call: its time-out, and the bytes of its output the model is given. */
  tools: { timeoutMs: number; outputBytes: number };
  /** Days the event trail of a deleted agent stays readable by its account before it is removed. */
  eventRetentionDays: number;
  platforms: PlatformSettings;
  webhooks: WebhookSettings;
  /** OpenTelemetry tracing; null (no cost at all) unless OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  tracing: TracingSettings | null;
  /** Per-agent metrics rollups (AGENTD_AGENT_METRICS, AGENTD_METRICS_FLUSH_MS, AGENTD_METRICS_RETENTION_DAYS). */
  agentMetrics: { enabled: boolean; flushMs: number; retentionDays: number };
  tasks: TaskSettings;
  embeddings: EmbeddingsConfig | null;
  knowledge: KnowledgeConfig;
  runs: RunSettings;
  logLevel: LogLevel;
}

/** How runs are recorded and watched over (see docs/runs.md). */
export interface RunSettings {
  /** Hours a run's events stay readable (GET …/runs/{id}/events) after they were recorded. */
  eventRetentionHours: number;
  /** How often a running reply's new events are written, so another instance can stream them. */
  flushMs: number;
  /** How often an instance reports it is alive, and looks for cancel requests of its runs. */
  heartbeatMs: number;
  /** A running run whose instance has not reported for this long is ended as failed. */
  staleMs: number;
  /** How often a stream of a run produced by another instance looks for its new events. */
  pollMs: number;
}

/** How platform connectors run (see README, "Platforms"). */
export interface PlatformSettings {
  /** This service's public URL: set, connectors that can be called by their platform (Telegram webhooks) are. */
  publicBaseUrl: string | null;
  /** The Telegram Bot API base URL (tests point it at a fake on loopback); null: Telegram's own. */
  telegramApiUrl: string | null;
  /** The Slack Web API base URL; null: Slack's own. */
  slackApiUrl: string | null;
  /** The Discord REST API base URL (the gateway address is the one it returns); null: Discord's own. */
  discordApiUrl: string | null;
  /** The X API base URL (the part before /2/…); null: X's own (https://api.x.com). */
  xApiUrl: string | null;
  /**
   * The Bluesky service (PDS) agents' entries use unless they name their own
   * (`settings.serviceUrl`); null: https://bsky.social.
   */
  blueskyServiceUrl: string | null;
  /** Time to live of a polling connector's lease: another instance takes over within about this long. */
  leaseMs: number;
  /** How often the trail is read for agents changed on any instance. */
  changePollMs: number;
  /** How often every agent with platforms is compared with what runs (the safety net). */
  reconcileMs: number;
  /** Names this instance in platform reports; a random id when unset. */
  instanceId: string | null;
}

export interface WebhookSettings {
  /** AGENTD_WEBHOOKS=off: no outbox rows are written and no dispatcher runs (webhooks can still be managed). */
  enabled: boolean;
  /**
   * AGENTD_WEBHOOK_DELIVERY=off: this instance writes the outbox but delivers nothing, leaving delivery to
   * the instances that have it on (dedicated delivery workers).
   */
  deliver: boolean;
  /** Time for a receiver to answer one delivery attempt. */
  timeoutMs: number;
  /** The unit of the retry schedule (events/retry-schedule.ts): 5 s gives retries over about 24 h. */
  retryBaseMs: number;
  /** How often an idle dispatcher looks for deliveries other instances wrote or that fell due. */
  pollMs: number;
  /** Days finished deliveries stay in the log before they are pruned. */
  retentionDays: number;
}

/** The task scheduler (see docs/tasks.md). */
export interface TaskSettings {
  /** AGENTD_TASKS=off: this instance claims no due tasks (others do); tasks can still be managed and run now. */
  schedule: boolean;
  /** The shortest `everySeconds` a task may have. */
  minIntervalSeconds: number;
  /** How often this instance looks for due tasks: a due time starts within about this long. */
  tickMs: number;
  /** Task runs this instance produces at once; it claims no more while that many are in flight. */
  concurrency: number;
}

export interface TracingSettings {
  /** OTLP/HTTP base URL; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName: string;
  /** How long finished spans are batched before they are sent (OTEL_BSP_SCHEDULE_DELAY). */
  exportDelayMs: number;
}

export interface HttpBounds {
  /** Time for a request's headers to arrive in full (slow-loris). */
  headersTimeoutMs: number;
  /** Time for a whole request, body included, to arrive; never shorter than headersTimeoutMs. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is held open between requests. */
  keepAliveTimeoutMs: number;
  /** Request line plus headers (Node's maxHeaderSize): larger is answered 413. */
  maxHeaderBytes: number;
  /** The query string after `?`: longer is answered 400 before the key is even looked up. */
  maxQueryBytes: number;
  /** Connections the kernel queues for the server to accept (listen(2) backlog; capped by net.core.somaxconn). */
  listenBacklog: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

export const apiKeyPattern = /^agd_[0-9A-Za-z]{32,128}$/;

type Environment = Record<string, string | undefined>;

function read(env: Environment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Environment, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new ConfigError(name, `must be a whole number from ${min} to ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be a whole number from ${min} to ${max}`);
  return value;
}

function boolean(env: Environment, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, 'must be true or false');
}

function httpUrl(env: Environment, name: string): string | null {
  const raw = read(env, name);
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, 'must be an absolute http(s) URL');
  }
  return raw.replace(/\/+$/, '');
}

export function parseRateLimits(raw: string | undefined): RateLimitSettings | null {
  const name = 'AGENTD_RATE_LIMITS';
  if (raw === undefined) return structuredClone(defaultRateLimits);
  if (raw.toLowerCase() === 'off') return null;
  const settings = structuredClone(defaultRateLimits);
  for (const part of raw.split(',')) {
    const match = /^\s*([A-Za-z]+)\s*=\s*([0-9]+)\s*$/.exec(part);
    if (!match) throw new ConfigError(name, `has an entry that is not name=number: "${part.trim()}"`);
    const [, key, value] = match as unknown as [string, string, string];
    const amount = Number(value);
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > 1_000_000) {
      throw new ConfigError(name, `value for ${key} must be a whole number from 1 to 1000000`);
    }
    if (key === 'sendMessageConcurrency') {
      settings.sendMessageConcurrency = amount;
    } else if ((rateLimitNames as readonly string[]).includes(key)) {
      settings.perMinute[key as RateLimitName] = amount;
    } else {
      throw new ConfigError(
        name,
        `names an unknown limit "${key}" (known: ${[...rateLimitNames, 'sendMessageConcurrency'].join(', ')})`,
      );
    }
  }
  return settings;
}

function httpBounds(env: Environment): HttpBounds {
  const headersTimeoutMs = integer(env, 'AGENTD_HEADERS_TIMEOUT_MS', 20_000, 100, 600_000);
  const requestTimeoutMs = integer(env, 'AGENTD_REQUEST_TIMEOUT_MS', 120_000, 100, 3_600_000);
  // Node refuses a server whose headers may take longer than the whole request.
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError('AGENTD_REQUEST_TIMEOUT_MS', 'must not be shorter than AGENTD_HEADERS_TIMEOUT_MS');
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    // Longer than the 60 s idle time-out of common load balancers, so they never reuse a connection we closed.
    keepAliveTimeoutMs: integer(env, 'AGENTD_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 600_000),
    maxHeaderBytes: integer(env, 'AGENTD_MAX_HEADER_BYTES', 16_384, 1024, 1_048_576),
    maxQueryBytes: integer(env, 'AGENTD_MAX_QUERY_BYTES', 4096, 256, 65_536),
    // Node's default of 511 overflows when hundreds of clients connect in the same instant (an instance holds
    // thousands of open streams); the kernel resets what does not fit. Linux caps it at net.core.somaxconn.
    listenBacklog: integer(env, 'AGENTD_LISTEN_BACKLOG', 4096, 1, 65_535),
  };
}

function tracingSettings(env: Environment): TracingSettings | null {
  const endpoint = httpUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (endpoint === null) return null;
  return {
    endpoint,
    serviceName: read(env, 'OTEL_SERVICE_NAME') ?? 'agentd',
    exportDelayMs: integer(env, 'OTEL_BSP_SCHEDULE_DELAY', 5_000, 10, 600_000),
  };
}

export function parseModelReference(raw: string): { provider: string; name: string } | null {
  const slash = raw.indexOf('/');
  if (slash <= 0 || slash === raw.length - 1) return null;
  return { provider: raw.slice(0, slash), name: raw.slice(slash + 1) };
}

function embeddingsConfig(env: Environment, providers: ProviderEnvironment): EmbeddingsConfig | null {
  const raw = read(env, 'AGENTD_EMBEDDINGS_PROVIDER')?.toLowerCase();
  if (raw === undefined || raw === 'none') return null;
  if (!(embeddingProviders as readonly string[]).includes(raw)) {
    throw new ConfigError('AGENTD_EMBEDDINGS_PROVIDER', `must be one of ${embeddingProviders.join(', ')} or none`);
  }
  const provider = raw as EmbeddingProviderName;
  const model = read(env, 'AGENTD_EMBEDDINGS_MODEL');
  if (model === undefined) throw new ConfigError('AGENTD_EMBEDDINGS_MODEL', 'must name the embedding model');
  // Without a base URL of its own, the embeddings use the same endpoint as the provider's chat models.
  const fallbackUrl =
    provider === 'openai'
      ? (providers.openai?.baseUrl ?? null)
      : provider === 'ollama'
        ? (providers.ollama?.baseUrl ?? null)
        : (providers.openaiCompatible?.baseUrl ?? null);
  const baseUrl = httpUrl(env, 'AGENTD_EMBEDDINGS_BASE_URL') ?? fallbackUrl;
  if (provider !== 'openai' && baseUrl === null) {
    throw new ConfigError('AGENTD_EMBEDDINGS_BASE_URL', `must be set for the ${provider} embeddings provider`);
  }
  const fallbackKey =
    provider === 'openai'
      ? (providers.openai?.apiKey ?? null)
      : provider === 'openai-compatible'
        ? (providers.openaiCompatible?.apiKey ?? null)
        : null;
  const apiKey = read(env, 'AGENTD_EMBEDDINGS_API_KEY') ?? fallbackKey;
  if (provider === 'openai' && apiKey === null) {
    throw new ConfigError('AGENTD_EMBEDDINGS_API_KEY', 'must be set for the openai embeddings provider');
  }
  return {
    provider,
    model,
    baseUrl,
    apiKey,
    dimensions: integer(env, 'AGENTD_EMBEDDINGS_DIMENSIONS', 1536, 1, 8192),
    batchSize: integer(env, 'AGENTD_EMBEDDINGS_BATCH_SIZE', 64, 1, 2048),
    concurrency: integer(env, 'AGENTD_EMBEDDINGS_CONCURRENCY', 4, 1, 256),
  };
}

export function loadConfig(env: Environment, cwd: string = process.cwd()): Config {
  const dataDir = path.resolve(cwd, read(env, 'AGENTD_DATA_DIR') ?? './data');

  const databaseUrl = read(env, 'DATABASE_URL');
  let database: DatabaseConfig;
  if (databaseUrl === undefined) {
    database = { kind: 'sqlite', file: path.join(dataDir, 'agentd.sqlite') };
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    database = { kind: 'postgres', url: databaseUrl, poolSize: integer(env, 'AGENTD_DATABASE_POOL_SIZE', 10, 1, 1000) };
  } else if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length).replace(/^\/\//, '');
    if (file === '') throw new ConfigError('DATABASE_URL', 'names no SQLite file (use sqlite:./path/file.sqlite)');
    database = { kind: 'sqlite', file: path.resolve(cwd, file) };
  } else {
    throw new ConfigError('DATABASE_URL', 'must start with postgres:// (or sqlite: for a SQLite file)');
  }

  const redisUrl = read(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  }

  const secretHex = read(env, 'AGENTD_SECRET_KEY');
  let secretKey: Buffer | null = null;
  if (secretHex !== undefined) {
    if (!/^[0-9a-fA-F]{64}$/.test(secretHex)) {
      throw new ConfigError('AGENTD_SECRET_KEY', 'must be 64 hexadecimal characters (32 bytes)');
    }
    secretKey = Buffer.from(secretHex, 'hex');
  } else if (database.kind === 'postgres') {
    throw new ConfigError(
      'AGENTD_SECRET_KEY',
      'is required with PostgreSQL: every instance must share it (generate one with: openssl rand -hex 32)',
    );
  }

  const bootstrapKey = read(env, 'AGENTD_BOOTSTRAP_KEY') ?? null;
  if (bootstrapKey !== null && !apiKeyPattern.test(bootstrapKey)) {
    throw new ConfigError('AGENTD_BOOTSTRAP_KEY', 'must be "agd_" followed by 32 to 128 letters and digits');
  }

  const defaultModelRaw = read(env, 'AGENTD_DEFAULT_MODEL');
  let defaultModel: Config['defaultModel'] = null;
  if (defaultModelRaw !== undefined) {
    defaultModel = parseModelReference(defaultModelRaw);
    if (defaultModel === null) throw new ConfigError('AGENTD_DEFAULT_MODEL', 'must look like provider/model-name');
  }

  const openaiKey = read(env, 'OPENAI_API_KEY');
  const anthropicKey = read(env, 'ANTHROPIC_API_KEY');
  const compatibleBaseUrl = httpUrl(env, 'AGENTD_OPENAI_COMPATIBLE_BASE_URL');
  const ollamaBaseUrl = httpUrl(env, 'OLLAMA_BASE_URL');
  const providers: ProviderEnvironment = {
    openai: openaiKey ? { apiKey: openaiKey, baseUrl: httpUrl(env, 'OPENAI_BASE_URL') } : null,
    anthropic: anthropicKey ? { apiKey: anthropicKey, baseUrl: httpUrl(env, 'ANTHROPIC_BASE_URL') } : null,
    openaiCompatible: compatibleBaseUrl
      ? { baseUrl: compatibleBaseUrl, apiKey: read(env, 'AGENTD_OPENAI_COMPATIBLE_API_KEY') ?? null }
      : null,
    ollama: ollamaBaseUrl ? { baseUrl: ollamaBaseUrl } : null,
  };

  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', 'must be one of fatal, error, warn, info, debug, trace, silent');
  }

  const host = read(env, 'HOST') ?? '127.0.0.1';

  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host,
    dataDir,
    database,
    redis: redisUrl
      ? {
          url: redisUrl,
          keyPrefix: read(env, 'AGENTD_REDIS_PREFIX') ?? 'agentd:',
          leaseMs: integer(env, 'AGENTD_CONCURRENCY_LEASE_MS', 30_000, 1000, 600_000),
        }
      : null,
    secretKey,
    bootstrapKey,
    rateLimits: parseRateLimits(read(env, 'AGENTD_RATE_LIMITS')),
    maxOpenStreamsPerAccount: integer(env, 'AGENTD_MAX_OPEN_STREAMS_PER_ACCOUNT', 100, 1, 1_000_000),
    defaultModel,
    providers,
    modelPrices: modelPrices(read(env, 'AGENTD_MODEL_PRICES')),
    allowAgentModelKeys: boolean(env, 'AGENTD_ALLOW_AGENT_MODEL_KEYS', false),
    outbound: { allowPrivateAddresses: boolean(env, 'AGENTD_OUTBOUND_ALLOW_PRIVATE', false) },
    providerTimeoutMs: integer(env, 'AGENTD_PROVIDER_TIMEOUT_MS', 30_000, 100, 600_000),
    providerRetryDelayMs: integer(env, 'AGENTD_PROVIDER_RETRY_DELAY_MS', 250, 0, 60_000),
    circuitBreaker: {
      failureThreshold: integer(env, 'AGENTD_CIRCUIT_FAILURE_THRESHOLD', 5, 1, 1000),
      openMs: integer(env, 'AGENTD_CIRCUIT_OPEN_MS', 30_000, 100, 3_600_000),
    },
    bodyLimitBytes: integer(env, 'AGENTD_BODY_LIMIT_BYTES', 1_048_576, 1024, 64 * 1_048_576),
    files: { maxImageBytes: integer(env, 'AGENTD_MAX_IMAGE_BYTES', 5 * 1_048_576, 1024, 20 * 1_048_576) },
    http: httpBounds(env),
    sseKeepAliveMs: integer(env, 'AGENTD_SSE_KEEPALIVE_MS', 15_000, 10, 600_000),
    builtinWordDelayMs: integer(env, 'AGENTD_BUILTIN_WORD_DELAY_MS', 20, 0, 1_000),
    shutdownTimeoutMs: integer(env, 'AGENTD_SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    tools: {
      timeoutMs: integer(env, 'AGENTD_TOOL_TIMEOUT_MS', 15_000, 100, 600_000),
      outputBytes: integer(env, 'AGENTD_TOOL_OUTPUT_BYTES', 16_384, 256, 1_048_576),
    },
    eventRetentionDays: integer(env, 'AGENTD_EVENT_RETENTION_DAYS', 30, 1, 3650),
    platforms: platformSettings(env),
    webhooks: {
      enabled: boolean(env, 'AGENTD_WEBHOOKS', true),
      deliver: boolean(env, 'AGENTD_WEBHOOK_DELIVERY', true),
      timeoutMs: integer(env, 'AGENTD_WEBHOOK_TIMEOUT_MS', 10_000, 50, 120_000),
      retryBaseMs: integer(env, 'AGENTD_WEBHOOK_RETRY_BASE_MS', 5_000, 1, 600_000),
      pollMs: integer(env, 'AGENTD_WEBHOOK_POLL_MS', 1_000, 10, 600_000),
      retentionDays: integer(env, 'AGENTD_WEBHOOK_RETENTION_DAYS', 7, 1, 3650),
    },
    tracing: tracingSettings(env),
    agentMetrics: {
      enabled: boolean(env, 'AGENTD_AGENT_METRICS', true),
      flushMs: integer(env, 'AGENTD_METRICS_FLUSH_MS', 5000, 100, 600_000),
      retentionDays: integer(env, 'AGENTD_METRICS_RETENTION_DAYS', 30, 1, 3650),
    },
    tasks: {
      schedule: boolean(env, 'AGENTD_TASKS', true),
      minIntervalSeconds: integer(env, 'AGENTD_TASK_MIN_INTERVAL_SECONDS', 60, 1, 86_400),
      tickMs: integer(env, 'AGENTD_TASK_TICK_MS', 250, 10, 60_000),
      concurrency: integer(env, 'AGENTD_TASK_CONCURRENCY', 50, 1, 10_000),
    },
    embeddings: embeddingsConfig(env, providers),
    knowledge: {
      maxDocumentBytes: integer(env, 'AGENTD_KNOWLEDGE_MAX_DOCUMENT_BYTES', 10 * 1_048_576, 1024, 256 * 1_048_576),
      leaseMs: integer(env, 'AGENTD_KNOWLEDGE_LEASE_MS', 60_000, 500, 3_600_000),
      pollMs: integer(env, 'AGENTD_KNOWLEDGE_POLL_MS', 1000, 10, 600_000),
    },
    runs: runSettings(env),
    logLevel: logLevel as LogLevel,
  };
}

/**
 * AGENTD_MODEL_PRICES: `{"provider": {"model": {"inputPerMillion": 0.5, "cachedInputPerMillion": 0.05,
 * "outputPerMillion": 1.5}}}`, inline or in a file (a value not starting with `{` is a path).
 */
export function modelPrices(raw: string | undefined): Config['modelPrices'] {
  const name = 'AGENTD_MODEL_PRICES';
  if (raw === undefined) return {};
  let text = raw;
  if (!raw.startsWith('{')) {
    try {
      text = readFileSync(raw, 'utf8');
    } catch {
      throw new ConfigError(name, 'must be a JSON object or the path of a readable JSON file');
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(name, 'is not valid JSON');
  }
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(parsed)) throw new ConfigError(name, 'must be an object of providers, each an object of models');
  const prices: Config['modelPrices'] = {};
  for (const [provider, models] of Object.entries(parsed)) {
    if (!isObject(models)) throw new ConfigError(name, `entry "${provider}" must be an object of models`);
    prices[provider] = {};
    for (const [model, price] of Object.entries(models)) {
      const where = `${provider}/${model}`;
      if (!isObject(price)) throw new ConfigError(name, `entry "${where}" must be an object of prices`);
      const known = ['inputPerMillion', 'cachedInputPerMillion', 'outputPerMillion'];
      const unknown = Object.keys(price).find((key) => !known.includes(key));
      if (unknown !== undefined) {
        throw new ConfigError(name, `entry "${where}" has an unknown field "${unknown}" (known: ${known.join(', ')})`);
      }
      const amount = (field: string, required: boolean): number | undefined => {
        const value = price[field];
        if (value === undefined && !required) return undefined;
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
          throw new ConfigError(name, `entry "${where}" needs ${field} as a number of dollars, 0 or more`);
        }
        return value;
      };
      const cachedInputPerMillion = amount('cachedInputPerMillion', false);
      prices[provider][model] = {
        inputPerMillion: amount('inputPerMillion', true) as number,
        outputPerMillion: amount('outputPerMillion', true) as number,
        ...(cachedInputPerMillion === undefined ? {} : { cachedInputPerMillion }),
      };
    }
  }
  return prices;
}

function runSettings(env: Environment): RunSettings {
  const heartbeatMs = integer(env, 'AGENTD_RUN_HEARTBEAT_MS', 2_000, 50, 60_000);
  const staleMs = integer(env, 'AGENTD_RUN_STALE_MS', 10_000, 200, 600_000);
  // A live instance must get several heartbeats in before it could be taken for stopped.
  if (staleMs < heartbeatMs * 3) {
    throw new ConfigError('AGENTD_RUN_STALE_MS', 'must be at least three times AGENTD_RUN_HEARTBEAT_MS');
  }
  return {
    eventRetentionHours: integer(env, 'AGENTD_RUN_EVENT_RETENTION_HOURS', 24, 1, 24 * 365),
    flushMs: integer(env, 'AGENTD_RUN_FLUSH_MS', 100, 10, 10_000),
    heartbeatMs,
    staleMs,
    pollMs: integer(env, 'AGENTD_RUN_POLL_MS', 200, 10, 10_000),
  };
}

function platformSettings(env: Environment): PlatformSettings {
  const instanceId = read(env, 'AGENTD_INSTANCE_ID') ?? null;
  if (instanceId !== null && !/^[A-Za-z0-9._-]{1,64}$/.test(instanceId)) {
    throw new ConfigError('AGENTD_INSTANCE_ID', 'must be 1 to 64 letters, digits, dots, dashes or underscores');
  }
  return {
    publicBaseUrl: httpUrl(env, 'AGENTD_PUBLIC_BASE_URL'),
    telegramApiUrl: httpUrl(env, 'AGENTD_TELEGRAM_API_URL'),
    slackApiUrl: httpUrl(env, 'AGENTD_SLACK_API_URL'),
    discordApiUrl: httpUrl(env, 'AGENTD_DISCORD_API_URL'),
    xApiUrl: httpUrl(env, 'AGENTD_X_API_URL'),
    blueskyServiceUrl: httpUrl(env, 'AGENTD_BLUESKY_SERVICE_URL'),
    leaseMs: integer(env, 'AGENTD_PLATFORM_LEASE_MS', 15_000, 1000, 600_000),
    changePollMs: integer(env, 'AGENTD_PLATFORM_CHANGE_POLL_MS', 250, 50, 60_000),
    reconcileMs: integer(env, 'AGENTD_PLATFORM_RECONCILE_MS', 30_000, 1000, 3_600_000),
    instanceId,
  };
}

/** Where the `agentd agents …` and `agentd chat` commands reach a running agentd, and as whom. */
export interface RemoteConfig {
  baseUrl: string;
  apiKey: string;
}

/**
 * Read apart from loadConfig: these commands only talk HTTP, so the server's own
 * settings (database, secret key) must not be required, nor stop them when invalid.
 */
export function loadRemoteConfig(env: Environment): RemoteConfig {
  const baseUrl = httpUrl(env, 'AGENTD_URL') ?? `http://127.0.0.1:${integer(env, 'PORT', 3000, 1, 65535)}`;
  const apiKey = read(env, 'AGENTD_API_KEY');
  if (apiKey === undefined) throw new ConfigError('AGENTD_API_KEY', 'must be set to an API key (agd_…)');
  if (!apiKeyPattern.test(apiKey)) {
    throw new ConfigError('AGENTD_API_KEY', 'must be "agd_" followed by 32 to 128 letters and digits');
  }
  return { baseUrl, apiKey };
}

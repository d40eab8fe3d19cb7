import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { AgentMetricsRecorder } from '../events/agent-metrics-recorder.js';
import type { ToolLimits } from '../conversation/tool-runner.js';
import type { WebhookOutbox } from '../events/webhook-outbox.js';
import type { ConcurrencyLimiter } from '../limits/concurrency-limiter.js';
import type { PlatformCatalog } from '../platforms/catalog.js';
import type { KnowledgeRetrieval } from '../conversation/knowledge-retrieval.js';
import type { RecallSource } from '../conversation/memory/recall.js';
import type { FetchFunction } from '../plugins/plugin.js';
import type { FileStore } from '../files/file-store.js';
import type { PluginCatalog } from '../plugins/catalog.js';
import type { AgentToolsets } from '../plugins/toolsets.js';
import type { ProviderCatalog } from '../providers/catalog.js';
import type { ModelGateway } from '../providers/model-gateway.js';
import type { PriceTable } from '../providers/prices.js';
import type { SecretBox } from '../security/secret-box.js';
import type { Repositories } from '../storage/repositories/index.js';
import type { MemoryWorker } from './memory/memory-worker.js';
import type { RunRuntime } from './runs/run-runtime.js';
import type { ResumeStarter } from './approvals/approvals.js';
import type { Scope } from '../schemas/api-keys.js';
import type { Tracing } from '../tracing/tracing.js';

export { scopes, type Scope } from '../schemas/api-keys.js';

/** Who is calling: the account and the API key it used. */
export interface Actor {
  accountId: string;
  keyId: string;
  scopes: ReadonlySet<string>;
}

/** What the services need from the outside world; built once in the composition root. */
export interface ServiceDeps {
  repositories: Repositories;
  /** OpenTelemetry tracing, when OTEL_EXPORTER_OTLP_ENDPOINT is set: a run's tool calls are spans too. */
  tracing?: Tracing | null;
  secretBox: SecretBox;
  clock: Clock;
  providers: ProviderCatalog;
  logger: Logger;
  allowAgentModelKeys: boolean;
  /** Model calls with time-outs, retries and circuit breakers. */
  models: ModelGateway;
  /** What each model's tokens cost (defaults merged with AGENTD_MODEL_PRICES); see src/providers/prices.ts. */
  prices: PriceTable;
  /** Message requests in flight per agent; `messageConcurrency` null when limits are off. */
  concurrencyLimiter: ConcurrencyLimiter;
  messageConcurrency: number | null;
  /** Streamed replies open at once per account, counted by the same limiter. */
  openStreamsPerAccount: number;
  /**
   * The plugins this server offers, each agent's open tools, the limits of one
   * tool call, and the SSRF-safe client plugins' checks fetch documents with.
   */
  plugins: { catalog: PluginCatalog; toolsets: AgentToolsets; limits: ToolLimits; fetch: FetchFunction };
  /** The platform connectors this server runs; `instanceId` names this instance in platform reports. */
  platforms: { catalog: PlatformCatalog; instanceId: string };
  /** Days the event trail of a deleted agent is kept. */
  eventRetentionDays: number;
  /** The outbox events are written to, and whether webhook targets may be private addresses. */
  webhooks: { outbox: WebhookOutbox; allowPrivateTargets: boolean };
  /** Per-agent metrics: gathered in memory on the message path, flushed in batches. */
  agentMetrics: AgentMetricsRecorder;
  /**
   * Knowledge bases: retrieval, the worker to wake when a document is added,
   * the SSRF-safe fetch for documents given by URL, and the size cap.
   */
  knowledge: {
    retrieval: KnowledgeRetrieval;
    ingestion: { wake(): void } | null;
    fetch: FetchFunction;
    maxDocumentBytes: number;
  };
  /** Stored images (sent with messages, made by tools) and the SSRF-safe fetch for images given by URL. */
  files: { store: FileStore; fetch: FetchFunction };
  /** The background queue that keeps conversations' long-term memory up to date. */
  memory: MemoryWorker;
  /** Where prompts find earlier turns: full text, and nearest vectors with an embedding model. */
  recall: RecallSource;
  /** The runs this instance produces: their events, cancellation and heartbeat. */
  runs: RunRuntime;
  /**
   * Runs evals on this instance (src/services/evals/eval-runtime.ts): a new eval starts here at once, a cancelled
   * one stops here at once. Absent in a process without background work: another instance's heartbeat claims them.
   */
  evals?: { start(evalId: string): void; stop(evalId: string): Promise<void> };
  /** Goes on with replies that paused for approvals once they are decided. */
  approvals: ResumeStarter;
}

export interface ServiceContext {
  deps: ServiceDeps;
  actor: Actor;
  requestId: string;
}

/** The first line of every verb: the key must carry the scope. */
export function requireScope(ctx: ServiceContext, scope: Scope): void {
  if (!ctx.actor.scopes.has(scope)) {
    throw new AppError('insufficient_scope', `This API key lacks the ${scope} scope.`);
  }
}

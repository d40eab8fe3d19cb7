import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { DatabaseHandle } from '../database.js';
import { AccountRepository } from './accounts.js';
import { AgentEventRepository } from './agent-events.js';
import { AgentMetricsRepository } from './agent-metrics.js';
import { AgentRepository } from './agents.js';
import { AgentVersionRepository } from './agent-versions.js';
import { EvalDatasetRepository } from './evals-datasets.js';
import { EvalRepository } from './evals.js';
import { ApiKeyRepository } from './api-keys.js';
import { FileRepository } from './files.js';
import { IdempotencyRepository } from './idempotency.js';
import { KnowledgeRepository } from './knowledge.js';
import { KnowledgeBaseRepository, knowledgeVectorLayout } from './knowledge-bases.js';
import { MemoryRepository } from './memory.js';
import { MemoryVectorRepository } from './memory-vectors.js';
import { MessageRepository } from './messages.js';
import { VectorIndex } from './vector-index.js';
import type { VectorGraphOptions } from './vector-graph.js';
import { RunRepository } from './runs.js';
import { RunStepRepository } from './run-steps.js';
import { TaskRepository } from './tasks.js';
import { TransferTotalRepository } from './transfer-totals.js';
import { SpendTotalRepository } from './spend-totals.js';
import { AccountSpendLimitRepository } from './account-spend-limits.js';
import { ApprovalRepository } from './approvals.js';
import { PlatformStateRepository } from './platform-states.js';
import { ServiceStateRepository } from './service-state.js';
import { WebhookDeliveryRepository } from './webhook-deliveries.js';
import { WebhookRepository } from './webhooks.js';

export interface Repositories {
  db: Kysely<Database>;
  /** SQLite reads one statement at a time (one connection); PostgreSQL runs a request's reads at once. */
  readsAtOnce: boolean;
  /** SQLite's writes run on the event loop's thread (its driver is synchronous); PostgreSQL's are I/O. */
  writesBlock: boolean;
  accounts: AccountRepository;
  apiKeys: ApiKeyRepository;
  agents: AgentRepository;
  agentEvents: AgentEventRepository;
  /** Every configuration an agent had, by version (src/services/agent-versions/). */
  agentVersions: AgentVersionRepository;
  /** Eval datasets, eval runs and their results (src/services/evals/). */
  evalDatasets: EvalDatasetRepository;
  evals: EvalRepository;
  agentMetrics: AgentMetricsRepository;
  idempotency: IdempotencyRepository;
  messages: MessageRepository;
  knowledge: KnowledgeRepository;
  knowledgeBases: KnowledgeBaseRepository;
  memory: MemoryRepository;
  /** Vectors of conversation turns for recall; null without an embedding model. */
  memoryVectors: MemoryVectorRepository | null;
  serviceState: ServiceStateRepository;
  platformStates: PlatformStateRepository;
  webhooks: WebhookRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  /** The run store: the one writer of runs, the same methods on both dialects (runs.ts). */
  runs: RunRepository;
  /** The runs' journals: each completed step (src/services/runs/run-journal.ts). */
  runSteps: RunStepRepository;
  tasks: TaskRepository;
  /** Per-day totals of the `evm` plugin's transfers, for its daily limits. */
  transferTotals: TransferTotalRepository;
  /** Spend per agent and account per UTC day and month, for spend limits (src/services/spend/). */
  spendTotals: SpendTotalRepository;
  accountSpendLimits: AccountSpendLimitRepository;
  approvals: ApprovalRepository;
  files: FileRepository;
}

/**
 * `vectorDimensions`: the embedding model's width, or null without embeddings (no vector indexes).
 * `knowledgeGraph`: on SQLite, the approximate index of knowledge vectors for large collections (vector-graph.ts).
 */
export function createRepositories(
  { db, relaxedDb, dialect, committedReader }: DatabaseHandle,
  vectorDimensions: number | null = null,
  knowledgeGraph: VectorGraphOptions | null = null,
): Repositories {
  const messages = new MessageRepository(db, dialect, committedReader);
  const webhooks = new WebhookRepository(db, committedReader);
  const approvals = new ApprovalRepository(db);
  return {
    db,
    readsAtOnce: dialect === 'postgres',
    writesBlock: dialect === 'sqlite',
    accounts: new AccountRepository(db),
    apiKeys: new ApiKeyRepository(db, committedReader),
    agents: new AgentRepository(db, dialect, committedReader),
    agentEvents: new AgentEventRepository(db),
    agentVersions: new AgentVersionRepository(db),
    evalDatasets: new EvalDatasetRepository(db),
    evals: new EvalRepository(db),
    agentMetrics: new AgentMetricsRepository(db),
    idempotency: new IdempotencyRepository(db),
    messages,
    knowledge: new KnowledgeRepository(db, dialect, committedReader),
    knowledgeBases: new KnowledgeBaseRepository(
      db,
      dialect,
      vectorDimensions === null
        ? null
        : new VectorIndex(db, dialect, vectorDimensions, knowledgeVectorLayout, knowledgeGraph),
    ),
    memory: new MemoryRepository(db, dialect, committedReader),
    memoryVectors: vectorDimensions === null ? null : new MemoryVectorRepository(db, dialect, vectorDimensions),
    serviceState: new ServiceStateRepository(db),
    platformStates: new PlatformStateRepository(db),
    webhooks,
    webhookDeliveries: new WebhookDeliveryRepository(db, dialect),
    runs: new RunRepository(db, dialect, relaxedDb, { messages, webhooks, approvals }),
    runSteps: new RunStepRepository(db),
    tasks: new TaskRepository(db, dialect),
    transferTotals: new TransferTotalRepository(db, dialect),
    spendTotals: new SpendTotalRepository(db, dialect),
    accountSpendLimits: new AccountSpendLimitRepository(db),
    approvals,
    files: new FileRepository(db),
  };
}

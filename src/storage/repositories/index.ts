import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { DatabaseHandle } from '../database.js';
import { AccountRepository } from './accounts.js';
import { AgentEventRepository } from './agent-events.js';
import { AgentMetricsRepository } from './agent-metrics.js';
import { AgentRepository } from './agents.js';
import { ApiKeyRepository } from './api-keys.js';
import { FileRepository } from './files.js';
import { IdempotencyRepository } from './idempotency.js';
import { KnowledgeRepository } from './knowledge.js';
import { KnowledgeBaseRepository, knowledgeVectorLayout } from './knowledge-bases.js';
import { MemoryRepository } from './memory.js';
import { MemoryVectorRepository } from './memory-vectors.js';
import { MessageRepository } from './messages.js';
import { VectorIndex } from './vector-index.js';
import { RunRepository } from './runs.js';
import { TaskRepository } from './tasks.js';
import { PlatformStateRepository } from './platform-states.js';
import { ServiceStateRepository } from './service-state.js';
import { WebhookDeliveryRepository } from './webhook-deliveries.js';
import { WebhookRepository } from './webhooks.js';

export interface Repositories {
  db: Kysely<Database>;
  accounts: AccountRepository;
  apiKeys: ApiKeyRepository;
  agents: AgentRepository;
  agentEvents: AgentEventRepository;
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
  runs: RunRepository;
  tasks: TaskRepository;
  files: FileRepository;
}

/** `vectorDimensions`: the embedding model's width, or null without embeddings (no vector indexes). */
export function createRepositories(
  { db, dialect, committedReader }: DatabaseHandle,
  vectorDimensions: number | null = null,
): Repositories {
  return {
    db,
    accounts: new AccountRepository(db),
    apiKeys: new ApiKeyRepository(db, committedReader),
    agents: new AgentRepository(db, dialect, committedReader),
    agentEvents: new AgentEventRepository(db),
    agentMetrics: new AgentMetricsRepository(db),
    idempotency: new IdempotencyRepository(db),
    messages: new MessageRepository(db, dialect, committedReader),
    knowledge: new KnowledgeRepository(db, dialect, committedReader),
    knowledgeBases: new KnowledgeBaseRepository(
      db,
      dialect,
      vectorDimensions === null ? null : new VectorIndex(db, dialect, vectorDimensions, knowledgeVectorLayout),
    ),
    memory: new MemoryRepository(db, dialect, committedReader),
    memoryVectors: vectorDimensions === null ? null : new MemoryVectorRepository(db, dialect, vectorDimensions),
    serviceState: new ServiceStateRepository(db),
    platformStates: new PlatformStateRepository(db),
    webhooks: new WebhookRepository(db, committedReader),
    webhookDeliveries: new WebhookDeliveryRepository(db, dialect),
    runs: new RunRepository(db),
    tasks: new TaskRepository(db, dialect),
    files: new FileRepository(db),
  };
}

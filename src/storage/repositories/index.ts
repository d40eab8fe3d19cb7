import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { DatabaseHandle } from '../database.js';
import { AccountRepository } from './accounts.js';
import { AgentEventRepository } from './agent-events.js';
import { AgentRepository } from './agents.js';
import { ApiKeyRepository } from './api-keys.js';
import { IdempotencyRepository } from './idempotency.js';
import { KnowledgeRepository } from './knowledge.js';
import { KnowledgeBaseRepository } from './knowledge-bases.js';
import { KnowledgeVectorIndex } from './knowledge-vectors.js';
import { MessageRepository } from './messages.js';
import { ServiceStateRepository } from './service-state.js';

export interface Repositories {
  db: Kysely<Database>;
  accounts: AccountRepository;
  apiKeys: ApiKeyRepository;
  agents: AgentRepository;
  agentEvents: AgentEventRepository;
  idempotency: IdempotencyRepository;
  messages: MessageRepository;
  knowledge: KnowledgeRepository;
  knowledgeBases: KnowledgeBaseRepository;
  serviceState: ServiceStateRepository;
}

/** `vectorDimensions`: the embedding model's width, or null without embeddings (no vector index). */
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
    idempotency: new IdempotencyRepository(db),
    messages: new MessageRepository(db, dialect, committedReader),
    knowledge: new KnowledgeRepository(db, dialect, committedReader),
    knowledgeBases: new KnowledgeBaseRepository(
      db,
      dialect,
      vectorDimensions === null ? null : new KnowledgeVectorIndex(db, dialect, vectorDimensions),
    ),
    serviceState: new ServiceStateRepository(db),
  };
}

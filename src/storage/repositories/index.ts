import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { DatabaseHandle } from '../database.js';
import { AccountRepository } from './accounts.js';
import { AgentEventRepository } from './agent-events.js';
import { AgentRepository } from './agents.js';
import { ApiKeyRepository } from './api-keys.js';
import { IdempotencyRepository } from './idempotency.js';
import { KnowledgeRepository } from './knowledge.js';
import { MemoryRepository } from './memory.js';
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
  memory: MemoryRepository;
  serviceState: ServiceStateRepository;
}

export function createRepositories({ db, dialect, committedReader }: DatabaseHandle): Repositories {
  return {
    db,
    accounts: new AccountRepository(db),
    apiKeys: new ApiKeyRepository(db, committedReader),
    agents: new AgentRepository(db, dialect, committedReader),
    agentEvents: new AgentEventRepository(db),
    idempotency: new IdempotencyRepository(db),
    messages: new MessageRepository(db, dialect, committedReader),
    knowledge: new KnowledgeRepository(db, dialect, committedReader),
    memory: new MemoryRepository(db, dialect, committedReader),
    serviceState: new ServiceStateRepository(db),
  };
}

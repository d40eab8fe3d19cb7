import { validationError } from '../../errors.js';
import type { MemoryFactView, MemoryQueryValue, MemoryViewValue } from '../../schemas/memory.js';
import type { MemoryFactRow } from '../../storage/repositories/memory.js';
import type { Executor } from '../../storage/schema.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { conversationKey } from '../messages/conversation.js';

export function toFactView(row: MemoryFactRow): MemoryFactView {
  return {
    id: row.id,
    userId: row.user_id,
    subject: row.subject,
    statement: row.statement,
    sourceMessageId: row.source_message_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The conversation a memory request names: userId alone the private one, roomId the room's. */
export function memoryConversationOf(query: MemoryQueryValue): string {
  const conversation = conversationKey(query.userId ?? null, query.roomId ?? null);
  if (conversation === null) throw validationError('/query', 'must name userId or roomId (or both)');
  return conversation;
}

/** The memory view of a conversation: its summary, and the user's facts when a user is named. */
export async function readMemory(
  ctx: ServiceContext,
  agentId: string,
  query: MemoryQueryValue,
  executor: Executor = ctx.deps.repositories.db,
): Promise<MemoryViewValue> {
  const conversation = memoryConversationOf(query);
  const { memory } = ctx.deps.repositories;
  const [row, facts] = await Promise.all([
    memory.conversation(agentId, conversation, executor),
    query.userId !== undefined ? memory.factsOfUser(agentId, query.userId, executor) : Promise.resolve([]),
  ]);
  return {
    agentId,
    userId: query.userId ?? null,
    roomId: query.roomId ?? null,
    summary: row?.summary ? row.summary : null,
    summarizedThrough: row?.summarized_through ?? null,
    facts: facts.map(toFactView),
  };
}

/** What the agent remembers of a conversation and a user. */
export async function getMemory({
  ctx,
  agentId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: MemoryQueryValue;
}): Promise<MemoryViewValue> {
  requireScope(ctx, 'agents:read');
  memoryConversationOf(query);
  const agent = await findOwnAgent(ctx, agentId);
  return readMemory(ctx, agent.id, query);
}

import type { operations } from '../../../../src/client/openapi.js';
import { request } from '../../api.js';

/** The memory calls of the dashboard, typed by the server's OpenAPI document. */
export type ConversationList = operations['listConversations']['responses'][200]['content']['application/json'];
export type KnownConversation = ConversationList['data'][number];
export type Memory = operations['getMemory']['responses'][200]['content']['application/json'];
export type Fact = Memory['facts'][number];
type UpdateMemoryBody = operations['updateMemory']['requestBody']['content']['application/json'];

/** Who a memory is of: a user's private conversation and facts, or a room's conversation. */
export type MemoryOwner = { userId: string } | { roomId: string };

const agentPath = (agentId: string) => `/v1/agents/${encodeURIComponent(agentId)}`;

/** At most this many fact edits per request (the server's limit). */
const editsPerRequest = 100;

export const memoryApi = {
  conversations: (agentId: string, signal: AbortSignal) =>
    request<ConversationList>('GET', `${agentPath(agentId)}/conversations`, { query: { limit: 100 }, signal }),
  get: (agentId: string, owner: MemoryOwner, signal?: AbortSignal) =>
    request<Memory>('GET', `${agentPath(agentId)}/memory`, { query: owner, signal }),
  update: (agentId: string, owner: MemoryOwner, body: UpdateMemoryBody) =>
    request<Memory>('PATCH', `${agentPath(agentId)}/memory`, { query: owner, body }),
  /** Clears the summary and every fact, keeping the stored turns. */
  async forgetMemory(agentId: string, owner: MemoryOwner, facts: Fact[]): Promise<void> {
    await memoryApi.update(agentId, owner, { summary: null });
    for (let start = 0; start < facts.length; start += editsPerRequest) {
      const edits = facts.slice(start, start + editsPerRequest).map((fact) => ({ id: fact.id, delete: true as const }));
      await memoryApi.update(agentId, owner, { facts: edits });
    }
  },
  /** Deletes the conversation's turns with its summary, and a user's facts (DELETE …/conversations). */
  forgetConversation: (agentId: string, owner: MemoryOwner) =>
    request<{ deleted: number }>('DELETE', `${agentPath(agentId)}/conversations`, {
      query: 'userId' in owner ? { userId: owner.userId, facts: 'true' } : { roomId: owner.roomId },
    }),
};

export const ownerOf = (conversation: KnownConversation): MemoryOwner =>
  conversation.roomId !== null ? { roomId: conversation.roomId } : { userId: conversation.userId ?? '' };

export const ownerLabel = (owner: MemoryOwner) => ('userId' in owner ? `user ${owner.userId}` : `room ${owner.roomId}`);

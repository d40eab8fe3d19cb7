import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { getMemory } from '../../services/memory/get-memory.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { MemoryQuery, MemoryView } from '../../schemas/memory.js';

export function registerGetMemory(app: App): void {
  app.get(
    '/v1/agents/:agentId/memory',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'getAgent', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getMemory',
        tags: ['agents'],
        summary: 'Read what an agent remembers',
        description:
          "The long-term memory of a conversation: its rolling summary (the turns that left the prompt's window), " +
          'and with `userId` the facts the agent keeps about that user, each with the turn it came from. `userId` ' +
          "alone names the private conversation, `roomId` a room's. Counted against the getAgent limit. " +
          'Scope: `agents:read`.',
        params: AgentIdParams,
        querystring: MemoryQuery,
        response: { 200: MemoryView, ...problemResponses(400, 404) },
      },
    },
    async (request) => getMemory({ ctx: contextOf(request), agentId: request.params.agentId, query: request.query }),
  );
}

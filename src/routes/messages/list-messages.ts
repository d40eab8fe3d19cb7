import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { listMessages } from '../../services/messages/list-messages.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { ListMessagesQuery, MessageList } from '../../schemas/messages.js';

export function registerListMessages(app: App): void {
  app.get(
    '/v1/agents/:agentId/messages',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'listMessages', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listMessages',
        tags: ['messages'],
        summary: 'Read conversation history',
        description:
          "Stored turns, newest first. `userId` alone: the private conversation with that user; `roomId`: the room's " +
          "conversation; both: that user's turns in the room and the agent's answers to them; neither: every turn of the " +
          'agent. Follow `nextCursor` for older turns. Scope: `agents:read`.',
        params: AgentIdParams,
        querystring: ListMessagesQuery,
        response: { 200: MessageList, ...problemResponses(400, 404) },
      },
    },
    async (request) => listMessages({ ctx: contextOf(request), agentId: request.params.agentId, query: request.query }),
  );
}

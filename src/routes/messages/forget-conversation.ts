import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { forgetConversation } from '../../services/messages/forget-conversation.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { ForgetConversationQuery, ForgottenTurns } from '../../schemas/messages.js';

export function registerForgetConversation(app: App): void {
  app.delete(
    '/v1/agents/:agentId/conversations',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'deleteConversation', rateLimitPer: 'account' } },
      schema: {
        operationId: 'forgetConversation',
        tags: ['messages'],
        summary: 'Forget a conversation',
        description:
          "Deletes stored turns for good: `userId` alone, the private conversation with that user; `roomId`, the room's " +
          "conversation; both, that user's turns in the room and the answers to them. One of them is required. " +
          "The conversation's memory summary is forgotten with it; `facts=true` also forgets the user's facts. " +
          'Scope: `agents:write`.',
        params: AgentIdParams,
        querystring: ForgetConversationQuery,
        response: { 200: ForgottenTurns, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      forgetConversation({ ctx: contextOf(request), agentId: request.params.agentId, query: request.query }),
  );
}

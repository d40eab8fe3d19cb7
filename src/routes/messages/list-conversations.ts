import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { listConversations } from '../../services/messages/list-conversations.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { ConversationList, ListConversationsQuery } from '../../schemas/conversations.js';

export function registerListConversations(app: App): void {
  app.get(
    '/v1/agents/:agentId/conversations',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'listMessages', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listConversations',
        tags: ['messages'],
        summary: 'List the conversations an agent knows',
        description:
          'The private conversations (by `userId`) and rooms (by `roomId`) with stored turns, and the users the ' +
          'agent keeps facts about whose turns were forgotten, most recently active first: the ids the history, ' +
          'memory and forget routes take. Follow `nextCursor` for more. Counted against the listMessages limit. ' +
          'Scope: `agents:read`.',
        params: AgentIdParams,
        querystring: ListConversationsQuery,
        response: { 200: ConversationList, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      listConversations({ ctx: contextOf(request), agentId: request.params.agentId, query: request.query }),
  );
}

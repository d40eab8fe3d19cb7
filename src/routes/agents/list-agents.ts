import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { listAgents } from '../../services/agents/list-agents.js';
import { problemResponses } from '../../schemas/common.js';
import { AgentList, ListAgentsQuery } from '../../schemas/agents.js';

export function registerListAgents(app: App): void {
  app.get(
    '/v1/agents',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'listAgents', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listAgents',
        tags: ['agents'],
        summary: 'List agents',
        description:
          "Pages of the account's agents. Ties in the sort key are broken by id in the same direction, so pages " +
          'never repeat or skip an agent while nothing changes. Follow `nextCursor` (constant time per page at any ' +
          'depth) or ask for `page` numbers. Unknown query parameters are rejected. Scope: `agents:read`.',
        querystring: ListAgentsQuery,
        response: { 200: AgentList, ...problemResponses(400) },
      },
    },
    async (request) => listAgents({ ctx: contextOf(request), query: request.query }),
  );
}

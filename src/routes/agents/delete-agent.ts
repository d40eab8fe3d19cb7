import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { deleteAgent } from '../../services/agents/delete-agent.js';
import { problemResponses } from '../../schemas/common.js';
import { AgentIdParams, DeletedAgent } from '../../schemas/agents.js';

export function registerDeleteAgent(app: App): void {
  app.delete(
    '/v1/agents/:agentId',
    {
      config: { operation: { scope: 'agents:delete', rateLimit: 'deleteAgent', rateLimitPer: 'account' } },
      schema: {
        operationId: 'deleteAgent',
        tags: ['agents'],
        summary: 'Delete an agent for good',
        description:
          'Removes the agent with its conversations, knowledge and secrets. An agent with ' +
          '`deletionProtection: true` answers 403 `deletion_protected`. Scope: `agents:delete`.',
        params: AgentIdParams,
        response: { 200: DeletedAgent, ...problemResponses(404) },
      },
    },
    async (request) => deleteAgent({ ctx: contextOf(request), agentId: request.params.agentId }),
  );
}

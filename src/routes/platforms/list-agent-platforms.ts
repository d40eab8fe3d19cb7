import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { AgentPlatformList } from '../../schemas/platforms.js';
import { listAgentPlatforms } from '../../services/platforms/agent-platforms.js';

export function registerListAgentPlatforms(app: App): void {
  app.get(
    '/v1/agents/:agentId/platforms',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'getAgent', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listAgentPlatforms',
        tags: ['platforms'],
        summary: "Report the state of an agent's platform connectors",
        description:
          'One entry per `platforms[]` entry of the agent, in its order: `running`, `stopped`, `error` (with `reason`) ' +
          'or `unsupported`, when it last saw an event, and which instance runs it when it runs on one at a time. ' +
          'Every instance answers the same (the state is kept in the database). Scope: `agents:read`.',
        params: AgentIdParams,
        response: { 200: AgentPlatformList, ...problemResponses(404) },
      },
    },
    async (request) => listAgentPlatforms({ ctx: contextOf(request), agentId: request.params.agentId }),
  );
}

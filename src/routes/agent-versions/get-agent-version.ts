import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentVersionParams, AgentVersionSchema } from '../../schemas/agent-versions.js';
import { problemResponses } from '../../schemas/common.js';
import { getAgentVersion } from '../../services/agent-versions/read-versions.js';

export function registerGetAgentVersion(app: App): void {
  app.get(
    '/v1/agents/:agentId/versions/:version',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'listEvents', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getAgentVersion',
        tags: ['agents'],
        summary: 'Get one version of an agent',
        description:
          "The agent's configuration at that version, shaped like the agent (secrets masked; a version keeps a " +
          'reference to each secret, never its value). Scope: `agents:read`.',
        params: AgentVersionParams,
        response: { 200: AgentVersionSchema, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      getAgentVersion({ ctx: contextOf(request), agentId: request.params.agentId, version: request.params.version }),
  );
}

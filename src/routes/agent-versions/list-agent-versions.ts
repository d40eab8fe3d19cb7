import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { AgentVersionList, ListAgentVersionsQuery } from '../../schemas/agent-versions.js';
import { problemResponses } from '../../schemas/common.js';
import { listAgentVersions } from '../../services/agent-versions/read-versions.js';

export function registerListAgentVersions(app: App): void {
  app.get(
    '/v1/agents/:agentId/versions',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'listEvents', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listAgentVersions',
        tags: ['agents'],
        summary: "List an agent's versions",
        description:
          'Every configuration the agent had, newest first: each create, PATCH, character import and restore ' +
          'that changed its configuration is a version (a change of status alone is not). Each entry says who made ' +
          'it (`keyId`), how (`source`) and which top-level fields changed; GET one version for its configuration. ' +
          'Versions are kept for as long as the agent exists and deleted with it. Follow `nextCursor` for older ' +
          'versions. Scope: `agents:read`.',
        params: AgentIdParams,
        querystring: ListAgentVersionsQuery,
        response: { 200: AgentVersionList, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      listAgentVersions({ ctx: contextOf(request), agentId: request.params.agentId, query: request.query }),
  );
}

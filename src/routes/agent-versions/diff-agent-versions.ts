import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentVersionDiffQuery, AgentVersionDiffSchema, AgentVersionParams } from '../../schemas/agent-versions.js';
import { problemResponses } from '../../schemas/common.js';
import { diffAgentVersions } from '../../services/agent-versions/read-versions.js';

export function registerDiffAgentVersions(app: App): void {
  app.get(
    '/v1/agents/:agentId/versions/:version/diff',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'listEvents', rateLimitPer: 'account' } },
      schema: {
        operationId: 'diffAgentVersions',
        tags: ['agents'],
        summary: 'Compare two versions of an agent',
        description:
          'What changed from version `from` (default: the version before) to this one, as a JSON Patch (RFC 6902) ' +
          'over the two configurations, secrets masked: `add`, `remove` and `replace` operations at JSON Pointers. ' +
          "To compare a version with the agent as it is now, ask for the agent's `version` with `from` set to it. " +
          'Scope: `agents:read`.',
        params: AgentVersionParams,
        querystring: AgentVersionDiffQuery,
        response: { 200: AgentVersionDiffSchema, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      diffAgentVersions({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        version: request.params.version,
        ...(request.query.from !== undefined ? { from: request.query.from } : {}),
      }),
  );
}

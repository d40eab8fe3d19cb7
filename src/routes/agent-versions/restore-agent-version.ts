import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentSchema } from '../../schemas/agents.js';
import { AgentVersionParams } from '../../schemas/agent-versions.js';
import { problemResponses } from '../../schemas/common.js';
import { restoreAgentVersion } from '../../services/agent-versions/restore-version.js';

export function registerRestoreAgentVersion(app: App): void {
  app.post(
    '/v1/agents/:agentId/versions/:version/restore',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'updateAgent', rateLimitPer: 'account' } },
      schema: {
        operationId: 'restoreAgentVersion',
        tags: ['agents'],
        summary: 'Restore a version of an agent',
        description:
          "Makes that version's configuration the agent's again, as a new version (`source` `restore`), and " +
          'answers the agent. The status stays as it is. Secrets come back only from those the agent still holds: ' +
          'a version that needs a secret removed or replaced since, a model provider this server no longer enables, ' +
          'or a knowledge base deleted since, is refused with 409 `conflict` saying which, and nothing changes. ' +
          'Restoring a version equal to the present configuration changes nothing. No body. Scope: `agents:write`.',
        params: AgentVersionParams,
        response: { 200: Type.Ref(AgentSchema), ...problemResponses(400, 404, 409) },
      },
    },
    async (request) =>
      restoreAgentVersion({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        version: request.params.version,
      }),
  );
}

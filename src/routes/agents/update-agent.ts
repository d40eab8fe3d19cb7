import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { updateAgent } from '../../services/agents/update-agent.js';
import { problemResponses } from '../../schemas/common.js';
import { AgentIdParams, AgentSchema, UpdateAgentBody } from '../../schemas/agents.js';

export function registerUpdateAgent(app: App): void {
  app.patch(
    '/v1/agents/:agentId',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'updateAgent', rateLimitPer: 'account' } },
      schema: {
        operationId: 'updateAgent',
        tags: ['agents'],
        summary: 'Update an agent (JSON Merge Patch)',
        description:
          'RFC 7396: objects merge, arrays replace, `null` resets a field to its default. Accepts ' +
          '`application/json` and `application/merge-patch+json`. Setting `status` (or changing `model`) ' +
          'of an agent in `error` clears its `statusReason`. A masked secret sent back unchanged keeps the stored ' +
          'secret of a plugin (platform) entry of the same name (type) whose destination is the same: the URL its ' +
          'secrets are sent to, or what the plugin names instead (see `secrets`). A kept secret never follows a ' +
          'changed destination: its mask is then refused (400 `validation_failed` at `/body/plugins/{i}/secrets/' +
          '{name}`, nothing changed) and the secret must be given again in clear. A patch that changes nothing leaves `updatedAt` as it was. Scope: `agents:write`.',
        params: AgentIdParams,
        body: UpdateAgentBody,
        response: { 200: Type.Ref(AgentSchema), ...problemResponses(400, 404, 413, 415) },
      },
    },
    async (request) => updateAgent({ ctx: contextOf(request), agentId: request.params.agentId, patch: request.body }),
  );
}

import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { exportAgent } from '../../services/agents/character-export.js';
import { problemResponses } from '../../schemas/common.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { ExportedCharacter } from '../../schemas/character.js';

export function registerExportAgent(app: App): void {
  app.get(
    '/v1/agents/:agentId/export',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'getAgent', rateLimitPer: 'account' } },
      schema: {
        operationId: 'exportAgent',
        tags: ['agents'],
        summary: 'Export an agent as an ElizaOS character file',
        description:
          'What the character format has no field for is kept under `settings.agentd`, so that importing the ' +
          'file gives the same agent. Secrets are write-only: `settings.secrets` names them with empty values. ' +
          'Scope: `agents:read`.',
        params: AgentIdParams,
        response: { 200: ExportedCharacter, ...problemResponses(404) },
      },
    },
    async (request) => exportAgent({ ctx: contextOf(request), agentId: request.params.agentId }),
  );
}

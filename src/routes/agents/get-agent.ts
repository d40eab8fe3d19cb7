import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { getAgent, getAgentNow } from '../../services/agents/get-agent.js';
import { problemResponses } from '../../schemas/common.js';
import { AgentIdParams, AgentSchema } from '../../schemas/agents.js';

export function registerGetAgent(app: App): void {
  app.get(
    '/v1/agents/:agentId',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'getAgent', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getAgent',
        tags: ['agents'],
        summary: 'Get an agent',
        description: 'Secrets are returned masked. Scope: `agents:read`.',
        params: AgentIdParams,
        response: { 200: Type.Ref(AgentSchema), ...problemResponses(404) },
      },
    },
    // Without a promise where SQLite can answer at once (Fastify sends a returned value as it would a resolved one).
    (request) => {
      const input = { ctx: contextOf(request), agentId: request.params.agentId };
      return getAgentNow(input) ?? getAgent(input);
    },
  );
}

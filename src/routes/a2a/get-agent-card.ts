import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { getAgentCard } from '../../services/a2a/agent-card.js';
import { publicBaseUrl } from './public-base-url.js';

export function registerGetAgentCard(app: App, options: { publicBaseUrl: string | null }): void {
  app.get(
    '/v1/a2a/:agentId/.well-known/agent-card.json',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'getAgent', rateLimitPer: 'agent' } },
      schema: {
        operationId: 'getAgentCard',
        tags: ['a2a'],
        summary: "An agent's A2A agent card",
        description:
          'The agent as an A2A 1.0 agent card (ProtoJSON): its name, its bio as description, a skill for ' +
          'conversation, each enabled plugin and each line of expertise, the JSON-RPC interface at ' +
          '`/v1/a2a/{agentId}` (protocol versions 1.0 and 0.3), streaming, and the Bearer scheme of agentd keys. ' +
          'Cards are private to the account like the agents: the request needs a key with `agents:read`. The ' +
          'address in the card is AGENTD_PUBLIC_BASE_URL when set, else the one the request was sent to.',
        params: AgentIdParams,
        response: {
          200: Type.Unsafe<unknown>({ type: 'object', additionalProperties: true, description: 'An A2A AgentCard.' }),
          ...problemResponses(404),
        },
      },
    },
    async (request) => {
      const card = await getAgentCard({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        baseUrl: publicBaseUrl(request, options.publicBaseUrl),
      });
      return card;
    },
  );
}

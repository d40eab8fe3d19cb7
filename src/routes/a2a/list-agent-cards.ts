import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { listAgentCards } from '../../services/a2a/agent-card.js';
import { publicBaseUrl } from './public-base-url.js';

export function registerListAgentCards(app: App, options: { publicBaseUrl: string | null }): void {
  app.get(
    '/v1/a2a',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'listAgents', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listAgentCards',
        tags: ['a2a'],
        summary: "The account's A2A directory",
        description:
          'Every agent of the account as an A2A agent (the newest 1,000): its id, the address of its card and the ' +
          'card itself, as `GET /v1/a2a/{agentId}/.well-known/agent-card.json` answers it.',
        response: {
          200: Type.Object({
            data: Type.Array(
              Type.Object({
                agentId: Type.String(),
                cardUrl: Type.String(),
                card: Type.Unsafe<unknown>({
                  type: 'object',
                  additionalProperties: true,
                  description: 'An A2A AgentCard.',
                }),
              }),
            ),
          }),
          ...problemResponses(),
        },
      },
    },
    async (request) =>
      listAgentCards({ ctx: contextOf(request), baseUrl: publicBaseUrl(request, options.publicBaseUrl) }),
  );
}

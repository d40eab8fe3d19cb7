import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { EvalList, ListQuery } from '../../schemas/evals.js';
import { listEvals } from '../../services/evals/evals.js';

export function registerListEvals(app: App): void {
  app.get(
    '/v1/agents/:agentId/evals',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readEvals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listEvals',
        tags: ['evals'],
        summary: "List an agent's evals",
        description:
          "The agent's evals, newest first, each with its status, progress and totals per version (without the " +
          'cases: GET one for them). Follow `nextCursor` for older ones. Scope: `agents:read`.',
        params: AgentIdParams,
        querystring: ListQuery,
        response: { 200: EvalList, ...problemResponses(400, 404) },
      },
    },
    async (request) => listEvals({ ctx: contextOf(request), agentId: request.params.agentId, query: request.query }),
  );
}

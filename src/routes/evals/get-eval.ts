import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { AgentEvalParams, EvalSchema, GetEvalQuery } from '../../schemas/evals.js';
import { getEval } from '../../services/evals/evals.js';

export function registerGetEval(app: App): void {
  app.get(
    '/v1/agents/:agentId/evals/:evalId',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readEvals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getEval',
        tags: ['evals'],
        summary: 'Get an eval with its results',
        description:
          'The eval: status, progress, totals per version and per scorer type, and a page of its cases (those with ' +
          'a result so far): per case and version the replies, tool calls (`stubbed` ones were not run), finish ' +
          "reason, latency, tokens, cost, the runs, and each scorer's score (0–1), whether it passed and why. Cases " +
          'whose outcome differs between the two versions come first (`differs`), then dataset order; ' +
          '`differsOnly=true` lists only those. Follow `casesPagination.nextCursor` for more. Scope: `agents:read`.',
        params: AgentEvalParams,
        querystring: GetEvalQuery,
        response: { 200: EvalSchema, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      getEval({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        evalId: request.params.evalId,
        query: request.query,
      }),
  );
}

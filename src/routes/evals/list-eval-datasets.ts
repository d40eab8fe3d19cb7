import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { EvalDatasetList, ListQuery } from '../../schemas/evals.js';
import { listEvalDatasets } from '../../services/evals/datasets.js';

export function registerListEvalDatasets(app: App): void {
  app.get(
    '/v1/eval-datasets',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readEvals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listEvalDatasets',
        tags: ['evals'],
        summary: 'List eval datasets',
        description:
          "The account's eval datasets, newest first, without their cases (`caseCount` says how many); GET one for " +
          'its cases. Follow `nextCursor` for older ones. Scope: `agents:read`.',
        querystring: ListQuery,
        response: { 200: EvalDatasetList, ...problemResponses(400) },
      },
    },
    async (request) => listEvalDatasets({ ctx: contextOf(request), query: request.query }),
  );
}

import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { EvalDatasetParams, EvalDatasetSchema } from '../../schemas/evals.js';
import { getEvalDataset } from '../../services/evals/datasets.js';

export function registerGetEvalDataset(app: App): void {
  app.get(
    '/v1/eval-datasets/:datasetId',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readEvals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getEvalDataset',
        tags: ['evals'],
        summary: 'Get an eval dataset',
        description: "The dataset with its cases. Another account's dataset is 404. Scope: `agents:read`.",
        params: EvalDatasetParams,
        response: { 200: EvalDatasetSchema, ...problemResponses(404) },
      },
    },
    async (request) => getEvalDataset({ ctx: contextOf(request), datasetId: request.params.datasetId }),
  );
}

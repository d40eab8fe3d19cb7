import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { DeletedEvalDataset, EvalDatasetParams } from '../../schemas/evals.js';
import { deleteEvalDataset } from '../../services/evals/datasets.js';

export function registerDeleteEvalDataset(app: App): void {
  app.delete(
    '/v1/eval-datasets/:datasetId',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'writeEvals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'deleteEvalDataset',
        tags: ['evals'],
        summary: 'Delete an eval dataset',
        description:
          'The dataset is gone; evals made with it keep their copy of its cases and their results. A second DELETE ' +
          'is 404. Scope: `agents:write`.',
        params: EvalDatasetParams,
        response: { 200: DeletedEvalDataset, ...problemResponses(404) },
      },
    },
    async (request) => deleteEvalDataset({ ctx: contextOf(request), datasetId: request.params.datasetId }),
  );
}

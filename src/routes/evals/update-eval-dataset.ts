import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { EvalDatasetParams, EvalDatasetSchema, UpdateEvalDatasetBody } from '../../schemas/evals.js';
import { updateEvalDataset } from '../../services/evals/datasets.js';

export function registerUpdateEvalDataset(app: App): void {
  app.patch(
    '/v1/eval-datasets/:datasetId',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'writeEvals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'updateEvalDataset',
        tags: ['evals'],
        summary: 'Update an eval dataset',
        description:
          'JSON Merge Patch (RFC 7396) of `name`, `description` (null clears it) and `cases` (replaces the whole ' +
          'list, checked as on create). Evals already made keep the cases they were made with. Scope: `agents:write`.',
        params: EvalDatasetParams,
        body: UpdateEvalDatasetBody,
        response: { 200: EvalDatasetSchema, ...problemResponses(400, 404, 413) },
      },
    },
    async (request) =>
      updateEvalDataset({ ctx: contextOf(request), datasetId: request.params.datasetId, input: request.body }),
  );
}

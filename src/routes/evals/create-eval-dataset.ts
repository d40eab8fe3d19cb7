import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { CreateEvalDatasetBody, EvalDatasetSchema } from '../../schemas/evals.js';
import { createEvalDataset } from '../../services/evals/datasets.js';

export function registerCreateEvalDataset(app: App): void {
  app.post(
    '/v1/eval-datasets',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'writeEvals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'createEvalDataset',
        tags: ['evals'],
        summary: 'Create an eval dataset',
        description:
          "A dataset of the account's: cases (at most 1,000, unique ids), each one or more user messages (at most " +
          '10) with an optional `userId`, `context`, `allowSideEffects` and its scorers (`expect`, at most 20): ' +
          '`contains`, `notContains`, `regex`, `equals`, `jsonSchema`, `toolCalled`, `noToolCalled`, `finishReason`, ' +
          '`latencyMs`, `tokens`, `costUsd` and `rubric` (a judge model). A regex pattern is at most 200 characters ' +
          'without backreferences or nested quantifiers; a JSON schema must compile. Any agent of the account can ' +
          'be evaluated on it: POST /v1/agents/{agentId}/evals. Scope: `agents:write`.',
        body: CreateEvalDatasetBody,
        response: { 201: EvalDatasetSchema, ...problemResponses(400, 413) },
      },
    },
    async (request, reply) => {
      const dataset = await createEvalDataset({ ctx: contextOf(request), input: request.body });
      return reply.status(201).header('location', `/v1/eval-datasets/${dataset.id}`).send(dataset);
    },
  );
}

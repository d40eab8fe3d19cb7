import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { AgentEvalParams, EvalSchema } from '../../schemas/evals.js';
import { cancelEval } from '../../services/evals/evals.js';

export function registerCancelEval(app: App): void {
  app.post(
    '/v1/agents/:agentId/evals/:evalId/cancel',
    {
      config: { operation: { scope: 'messages:send', rateLimit: 'writeEvals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'cancelEval',
        tags: ['evals'],
        summary: 'Cancel an eval',
        description:
          'Stops a queued or running eval, wherever it runs: it is `cancelled` at once, its replies in progress stop ' +
          '(on another instance at its next heartbeat), and the results recorded so far stay. An eval that has ' +
          'ended is 409 `conflict`. No body. Scope: `messages:send`.',
        params: AgentEvalParams,
        response: { 200: EvalSchema, ...problemResponses(404, 409) },
      },
    },
    async (request) =>
      cancelEval({ ctx: contextOf(request), agentId: request.params.agentId, evalId: request.params.evalId }),
  );
}

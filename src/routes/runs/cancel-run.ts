import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { Run, RunIdParams } from '../../schemas/runs.js';
import { cancelRun } from '../../services/runs/runs.js';

export function registerCancelRun(app: App): void {
  app.post(
    '/v1/agents/:agentId/runs/:runId/cancel',
    {
      config: { operation: { scope: 'messages:send', rateLimit: 'cancelRuns', rateLimitPer: 'account' } },
      schema: {
        operationId: 'cancelRun',
        tags: ['runs'],
        summary: 'Cancel a run',
        description:
          'Stops a queued or running run: its model call and any tool are aborted, and what was said so far is kept ' +
          "(the reply's `finishReason` is `aborted`, the run's status `cancelled`). A run produced by this instance " +
          'is answered once it has ended; one produced by another instance stops at that instance’s next heartbeat ' +
          '(AGENTD_RUN_HEARTBEAT_MS, 2 s): the answer then shows `cancelRequestedAt` while it is still `running`. ' +
          'A run that has already ended: 409 `conflict`. Scope: `messages:send`.',
        params: RunIdParams,
        response: { 200: Type.Ref(Run), ...problemResponses(400, 404, 409) },
      },
    },
    async (request) =>
      cancelRun({ ctx: contextOf(request), agentId: request.params.agentId, runId: request.params.runId }),
  );
}

import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { Run, RunIdParams } from '../../schemas/runs.js';
import { getRun } from '../../services/runs/runs.js';

export function registerGetRun(app: App): void {
  app.get(
    '/v1/agents/:agentId/runs/:runId',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readRuns', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getRun',
        tags: ['runs'],
        summary: 'Get a run',
        description:
          'The run with its status, usage (in `reply`) and timings; once it has ended, `reply` is the reply as POST ' +
          '…/messages returns it, or `error` the problem it failed with. Scope: `agents:read`.',
        params: RunIdParams,
        response: { 200: Type.Ref(Run), ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      getRun({ ctx: contextOf(request), agentId: request.params.agentId, runId: request.params.runId }),
  );
}

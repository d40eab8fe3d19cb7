import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { Approval, ApprovalIdParams, DecideApprovalBody } from '../../schemas/approvals.js';
import { problemResponses } from '../../schemas/common.js';
import { decideApproval } from '../../services/approvals/approvals.js';

export function registerDecideApproval(app: App): void {
  app.post(
    '/v1/agents/:agentId/approvals/:approvalId',
    {
      config: { operation: { scope: 'approvals:write', rateLimit: 'decideApprovals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'decideApproval',
        tags: ['approvals'],
        summary: 'Approve or deny a tool call',
        description:
          '`approve`: the tool runs and the model goes on; `deny`: the tool never runs and the model is told so ' +
          '(with `reason`, when given) and answers. A decision is taken once, on any instance: a second one, or one ' +
          'after the approval expired, is 409 `conflict`. Once every pending call of the paused run is decided, ' +
          'the reply goes on in a new run (trigger `approval`) named by `resumedRunId`: read it, and stream its ' +
          'events, with GET /v1/agents/{agentId}/runs/{runId}(/events). Scope: `approvals:write`.',
        params: ApprovalIdParams,
        body: DecideApprovalBody,
        response: { 200: Type.Ref(Approval), ...problemResponses(400, 404, 409) },
      },
    },
    async (request) =>
      decideApproval({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        approvalId: request.params.approvalId,
        input: request.body,
      }),
  );
}

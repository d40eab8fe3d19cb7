import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { Approval, ApprovalIdParams } from '../../schemas/approvals.js';
import { problemResponses } from '../../schemas/common.js';
import { getApproval } from '../../services/approvals/approvals.js';

export function registerGetApproval(app: App): void {
  app.get(
    '/v1/agents/:agentId/approvals/:approvalId',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readApprovals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getApproval',
        tags: ['approvals'],
        summary: 'Get an approval',
        description:
          'One tool call waiting for (or given) a decision: the tool, its input, the run that paused, and once ' +
          'decided the decision and `resumedRunId`, the run that goes on with the reply. Scope: `agents:read`.',
        params: ApprovalIdParams,
        response: { 200: Type.Ref(Approval), ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      getApproval({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        approvalId: request.params.approvalId,
      }),
  );
}

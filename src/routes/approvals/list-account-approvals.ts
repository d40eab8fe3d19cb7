import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { ApprovalList, ListApprovalsQuery } from '../../schemas/approvals.js';
import { problemResponses } from '../../schemas/common.js';
import { listAccountApprovals } from '../../services/approvals/approvals.js';

export function registerListAccountApprovals(app: App): void {
  app.get(
    '/v1/approvals',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readApprovals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listAccountApprovals',
        tags: ['approvals'],
        summary: "List the approvals of all the account's agents",
        description:
          "The tool calls of every agent of the account that waited (or wait) for a person's decision, newest " +
          'first, in the same shape and pages as GET /v1/agents/{agentId}/approvals (each names its `agentId`); ' +
          '`status=pending` lists everything there is to decide. Decide one with POST ' +
          '/v1/agents/{agentId}/approvals/{approvalId}. Scope: `agents:read`.',
        querystring: ListApprovalsQuery,
        response: { 200: ApprovalList, ...problemResponses(400) },
      },
    },
    async (request) => listAccountApprovals({ ctx: contextOf(request), query: request.query }),
  );
}

import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { ApprovalList, ListApprovalsQuery } from '../../schemas/approvals.js';
import { problemResponses } from '../../schemas/common.js';
import { listApprovals } from '../../services/approvals/approvals.js';

export function registerListApprovals(app: App): void {
  app.get(
    '/v1/agents/:agentId/approvals',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readApprovals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listApprovals',
        tags: ['approvals'],
        summary: "List an agent's approvals",
        description:
          "The tool calls that waited (or wait) for a person's decision, newest first; `status=pending` lists those " +
          'to decide. An approval past its expiry is shown `expired` (the model was told). Follow `nextCursor` for ' +
          'older ones. Scope: `agents:read`.',
        params: AgentIdParams,
        querystring: ListApprovalsQuery,
        response: { 200: ApprovalList, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      listApprovals({ ctx: contextOf(request), agentId: request.params.agentId, query: request.query }),
  );
}

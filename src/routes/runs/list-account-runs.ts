import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { ListAccountRunsQuery } from '../../schemas/account-runs.js';
import { problemResponses } from '../../schemas/common.js';
import { RunList } from '../../schemas/runs.js';
import { listAccountRuns } from '../../services/runs/runs.js';

export function registerListAccountRuns(app: App): void {
  app.get(
    '/v1/runs',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readRuns', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listAccountRuns',
        tags: ['runs'],
        summary: "List the account's runs",
        description:
          "The runs of every agent of the key's account, newest first, as GET /v1/agents/{id}/runs lists one " +
          "agent's: filter by `agentId`, `status` or `trigger`, and follow `nextCursor` for older runs. An unknown " +
          '`agentId` gives an empty list. Scope: `agents:read`.',
        querystring: ListAccountRunsQuery,
        response: { 200: RunList, ...problemResponses(400) },
      },
    },
    async (request) => listAccountRuns({ ctx: contextOf(request), query: request.query }),
  );
}

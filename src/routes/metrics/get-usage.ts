import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { getUsage } from '../../services/metrics/get-usage.js';
import { problemResponses } from '../../schemas/common.js';
import { Usage, UsageQuery } from '../../schemas/metrics.js';

export function registerGetUsage(app: App): void {
  app.get(
    '/v1/metrics/usage',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readMetrics', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getUsage',
        tags: ['metrics'],
        summary: "The account's usage, in total and per agent",
        description:
          "The same totals as an agent's metrics, over whole hours from the hour of `from` (default 30 days before " +
          '`to`) to the hour of `to` (default now) included: for the whole account and per agent in agent id order, `limit` agents a page (follow ' +
          "`nextCursor`). Agents deleted since are listed by id. Only the caller's account is counted. " +
          'Scope: `agents:read`.',
        querystring: UsageQuery,
        response: { 200: Usage, ...problemResponses(400) },
      },
    },
    async (request) => getUsage({ ctx: contextOf(request), query: request.query }),
  );
}

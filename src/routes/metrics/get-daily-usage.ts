import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { getDailyUsage } from '../../services/metrics/get-daily-usage.js';
import { problemResponses } from '../../schemas/common.js';
import { DailyUsage, DailyUsageQuery } from '../../schemas/metrics.js';

export function registerGetDailyUsage(app: App): void {
  app.get(
    '/v1/metrics/usage/daily',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readMetrics', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getDailyUsage',
        tags: ['metrics'],
        summary: "The account's messages and tokens per day and per model",
        description:
          'The counts of `GET /v1/metrics/usage` (messages, failed messages, tool calls, input and output tokens) ' +
          'per UTC day from the day of `from` (default 30 days before `to`, at most 366 days) to the hour of `to` ' +
          '(default now), and per model: the model each agent is set to now, `null` for agents deleted since. ' +
          "Only days and models with traffic are listed. Only the caller's account is counted. Scope: `agents:read`.",
        querystring: DailyUsageQuery,
        response: { 200: DailyUsage, ...problemResponses(400) },
      },
    },
    async (request) => getDailyUsage({ ctx: contextOf(request), query: request.query }),
  );
}

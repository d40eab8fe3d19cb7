import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { getAgentMetrics } from '../../services/metrics/get-agent-metrics.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { AgentMetrics, AgentMetricsQuery, maxMetricBuckets } from '../../schemas/metrics.js';

export function registerGetAgentMetrics(app: App): void {
  app.get(
    '/v1/agents/:agentId/metrics',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readMetrics', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getAgentMetrics',
        tags: ['metrics'],
        summary: "Read an agent's metrics",
        description:
          'Messages, failures by type, tool calls, tokens, latency and time-to-first-token percentiles, and messages ' +
          'refused by the rate and concurrency limits, in buckets of `interval` (UTC) from `from` (rounded down to ' +
          `the interval) until \`to\`: the buckets that start before \`to\`, whole (minute buckets are read from minute ` +
          `rollups, hour and day buckets from hour rollups), with totals over them; at most ${maxMetricBuckets} buckets. Buckets ` +
          'without traffic are present with zeros; percentiles are null without samples. Defaults: the last 24 hours ' +
          'by hour. Instances write what they gathered every AGENTD_METRICS_FLUSH_MS (5 s), so the newest seconds may ' +
          'be missing; metrics are kept AGENTD_METRICS_RETENTION_DAYS (30). Percentiles come from fixed histogram ' +
          'buckets (see `latencyMs`). Scope: `agents:read`.',
        params: AgentIdParams,
        querystring: AgentMetricsQuery,
        response: { 200: AgentMetrics, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      getAgentMetrics({ ctx: contextOf(request), agentId: request.params.agentId, query: request.query }),
  );
}

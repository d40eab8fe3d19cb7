import { isoTime } from '../../clock.js';
import { validationError } from '../../errors.js';
import { emptyCounts, addCounts } from '../../events/metric-counts.js';
import { maxMetricBuckets, type AgentMetricsQueryValue, type AgentMetricsView } from '../../schemas/metrics.js';
import { bucketPrefixLength } from '../../storage/repositories/agent-metrics.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { timeRangeOf, toMetricTotals } from './metric-views.js';

const intervalMs = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
const defaultSpanMs = 24 * intervalMs.hour;

/**
 * The agent's metrics over [from, to) in buckets of the interval (UTC), the
 * buckets without traffic included, and their totals. Read from the rollups:
 * what the instances gathered in their last flush interval
 * (AGENTD_METRICS_FLUSH_MS) is not in them yet.
 */
export async function getAgentMetrics({
  ctx,
  agentId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: AgentMetricsQueryValue;
}): Promise<AgentMetricsView> {
  requireScope(ctx, 'agents:read');
  const interval = query.interval ?? 'hour';
  const size = intervalMs[interval];
  const { from, to } = timeRangeOf(query, ctx.deps.clock.now(), defaultSpanMs, size);
  const bucketCount = Math.ceil((to - from) / size);
  if (bucketCount > maxMetricBuckets) {
    throw validationError(
      '/query/from',
      `spans ${bucketCount} ${interval}s; at most ${maxMetricBuckets} buckets: narrow the range or use a longer interval`,
    );
  }
  await findOwnAgent(ctx, agentId);
  const rows = await ctx.deps.repositories.agentMetrics.buckets({
    accountId: ctx.actor.accountId,
    agentId,
    from: isoTime(from),
    // To the end of the last bucket: every bucket is whole, the one `to` falls in included.
    to: isoTime(from + bucketCount * size),
    size: interval,
  });
  const totals = emptyCounts();
  const buckets = [];
  for (let start = from; start < to; start += size) {
    const iso = isoTime(start);
    const counts = rows.get(iso.slice(0, bucketPrefixLength[interval])) ?? emptyCounts();
    addCounts(totals, counts);
    buckets.push({ start: iso, ...toMetricTotals(counts) });
  }
  return { agentId, from: isoTime(from), to: isoTime(to), interval, buckets, totals: toMetricTotals(totals) };
}

import { isoTime } from '../../clock.js';
import type { UsageQueryValue, UsageView } from '../../schemas/metrics.js';
import { requireScope, type ServiceContext } from '../context.js';
import { timeRangeOf, toMetricTotals } from './metric-views.js';
import { decodeLastIdCursor, encodeLastIdCursor } from '../last-id-cursor.js';

const defaultLimit = 100;
const defaultSpanMs = 30 * 86_400_000;

/**
 * The account's metric totals over the hours from `from` (rounded down) up to `to`, for the whole account and per
 * agent (agent id order, paged), for billing-style views. Only the caller's
 * account is ever read; agents deleted since still count, by id.
 */
export async function getUsage({ ctx, query }: { ctx: ServiceContext; query: UsageQueryValue }): Promise<UsageView> {
  requireScope(ctx, 'agents:read');
  // Usage is read from the hour rollups: whole hours, from the hour `from` falls in.
  const { from, to } = timeRangeOf(query, ctx.deps.clock.now(), defaultSpanMs, 3_600_000);
  const limit = query.limit ?? defaultLimit;
  const afterAgentId = query.cursor !== undefined ? decodeLastIdCursor('agent', query.cursor) : undefined;
  const range = { accountId: ctx.actor.accountId, from: isoTime(from), to: isoTime(to) };
  const { agentMetrics } = ctx.deps.repositories;
  const [totals, agents] = await Promise.all([
    agentMetrics.accountTotals(range),
    agentMetrics.totalsByAgent({ ...range, limit: limit + 1, ...(afterAgentId !== undefined ? { afterAgentId } : {}) }),
  ]);
  const hasMore = agents.length > limit;
  const page = agents.slice(0, limit);
  const last = page.at(-1);
  return {
    accountId: ctx.actor.accountId,
    from: range.from,
    to: range.to,
    totals: toMetricTotals(totals),
    data: page.map((agent) => ({ agentId: agent.agentId, ...toMetricTotals(agent.counts) })),
    pagination: { limit, hasMore, nextCursor: hasMore && last ? encodeLastIdCursor(last.agentId) : null },
  };
}

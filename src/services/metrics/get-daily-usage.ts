import { isoTime } from '../../clock.js';
import { validationError } from '../../errors.js';
import type { DailyModelUsageView, DailyUsageQueryValue, DailyUsageView } from '../../schemas/metrics.js';
import { requireScope, type ServiceContext } from '../context.js';
import { dollarsOf, timeRangeOf } from './metric-views.js';

const dayMs = 86_400_000;
const defaultSpanMs = 30 * dayMs;
/** A year and a day: the answer stays a few hundred rows per model, whatever the range asked. */
const maxSpanMs = 366 * dayMs;

/**
 * The account's messages and tokens per day and per model, for charts and
 * exports: the hour rollups summed per day and agent, then grouped by the
 * model each agent is set to now (the rollups do not keep the model, and an
 * agent's model rarely changes). Only the caller's account is read.
 */
export async function getDailyUsage({
  ctx,
  query,
}: {
  ctx: ServiceContext;
  query: DailyUsageQueryValue;
}): Promise<DailyUsageView> {
  requireScope(ctx, 'agents:read');
  const { from, to } = timeRangeOf(query, ctx.deps.clock.now(), defaultSpanMs, dayMs);
  if (to - from > maxSpanMs) throw validationError('/query/from', 'must be at most 366 days before to');
  const range = { accountId: ctx.actor.accountId, from: isoTime(from), to: isoTime(to) };
  const { agentMetrics, agents } = ctx.deps.repositories;
  const rows = await agentMetrics.dailyByAgent(range);
  const models = await agents.modelsOf(range.accountId, [...new Set(rows.map((row) => row.agentId))]);

  const byDayAndModel = new Map<string, DailyModelUsageView>();
  for (const { day, agentId, counts } of rows) {
    const model = models.get(agentId) ?? null;
    const key = `${day} ${model ?? ''}`;
    const entry = byDayAndModel.get(key) ?? {
      date: day,
      model,
      agents: 0,
      messages: 0,
      failedMessages: 0,
      toolCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      costUsd: 0,
      unpricedMessages: 0,
    };
    entry.agents += 1;
    entry.messages += counts.messages;
    entry.failedMessages += counts.failedMessages;
    entry.toolCalls += counts.toolCalls;
    entry.inputTokens += counts.inputTokens;
    entry.outputTokens += counts.outputTokens;
    entry.cachedInputTokens += counts.cachedInputTokens;
    // Summed as micro-dollars (whole numbers), shown as dollars.
    entry.costUsd = dollarsOf(Math.round(entry.costUsd * 1_000_000) + counts.costMicroUsd);
    entry.unpricedMessages += counts.unpricedMessages;
    byDayAndModel.set(key, entry);
  }
  // Deleted agents' usage (model null) last within its day.
  const order = (entry: DailyModelUsageView) => `${entry.date} ${entry.model === null ? '\uffff' : entry.model}`;
  const data = [...byDayAndModel.values()].sort((left, right) => (order(left) < order(right) ? -1 : 1));
  return { accountId: range.accountId, from: range.from, to: range.to, data };
}

import { validationError } from '../../errors.js';
import { failureTypes, histogramPercentile, type FailureType, type MetricCounts } from '../../events/metric-counts.js';
import type { MetricTotalsView } from '../../schemas/metrics.js';

/** Micro-dollars as dollars, without the float noise of a division (0.1 + 0.2). */
export function dollarsOf(microUsd: number): number {
  return Number((microUsd / 1_000_000).toFixed(6));
}

/** The API view of summed counts: failures with a count only, percentiles read from the histograms. */
export function toMetricTotals(counts: MetricCounts): MetricTotalsView {
  const failuresByType: Partial<Record<FailureType, number>> = {};
  for (const type of failureTypes) if (counts.failures[type] > 0) failuresByType[type] = counts.failures[type];
  return {
    messages: counts.messages,
    streamedMessages: counts.streamedMessages,
    failedMessages: counts.failedMessages,
    failuresByType,
    runsByTrigger: { ...counts.runs },
    toolCalls: counts.toolCalls,
    inputTokens: counts.inputTokens,
    outputTokens: counts.outputTokens,
    cachedInputTokens: counts.cachedInputTokens,
    latencyMs: {
      p50: histogramPercentile(counts.latency, 0.5),
      p95: histogramPercentile(counts.latency, 0.95),
      p99: histogramPercentile(counts.latency, 0.99),
    },
    timeToFirstTokenMs: {
      p50: histogramPercentile(counts.timeToFirstToken, 0.5),
      p95: histogramPercentile(counts.timeToFirstToken, 0.95),
    },
    rateLimited: counts.rateLimited,
    concurrencyRejected: counts.concurrencyRejected,
    memoryUpdates: counts.memoryUpdates,
    imagesIn: counts.imagesIn,
    imagesOut: counts.imagesOut,
    costUsd: dollarsOf(counts.costMicroUsd),
    unpricedMessages: counts.unpricedMessages,
  };
}

/**
 * A query's time range in epoch milliseconds: `to` defaults to now and
 * `from` to `defaultSpanMs` before it; `from` is rounded down to `alignMs`.
 * Times the schema let through but the clock cannot place are 400s too.
 */
export function timeRangeOf(
  query: { from?: string; to?: string },
  now: number,
  defaultSpanMs: number,
  alignMs: number,
): { from: number; to: number } {
  const parse = (value: string | undefined, field: 'from' | 'to'): number | undefined => {
    if (value === undefined) return undefined;
    const time = Date.parse(value);
    if (Number.isNaN(time) || time < 0 || time >= Date.parse('10000-01-01T00:00:00Z')) {
      throw validationError(`/query/${field}`, 'must be a time between 1970 and 9999');
    }
    return time;
  };
  const to = parse(query.to, 'to') ?? now;
  const given = parse(query.from, 'from');
  const from = Math.floor(Math.max(0, given ?? to - defaultSpanMs) / alignMs) * alignMs;
  if (from >= to) throw validationError(query.from !== undefined ? '/query/from' : '/query/to', 'must be before to');
  return { from, to };
}

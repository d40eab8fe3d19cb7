import { failureTypes, histogramSize, type MetricCounts } from '../../events/metric-counts.js';
import { runTriggerAddedIn, runTriggers } from '../../schemas/runs.js';

/** One counter column of `agent_metrics` and where its value lives in MetricCounts. */
export interface MetricColumn {
  name: string;
  /** bigint: token sums can pass 2^31 over a long range. */
  wide: boolean;
  read(counts: MetricCounts): number;
  add(counts: MetricCounts, value: number): void;
  /** The migration that added the column to the table (absent: created with it, in 0005). */
  addedIn?: string;
}

function scalar(
  name: string,
  field: Exclude<keyof MetricCounts, 'failures' | 'runs' | 'latency' | 'timeToFirstToken'>,
  wide = false,
): MetricColumn {
  return {
    name,
    wide,
    read: (counts) => counts[field],
    add: (counts, value) => {
      counts[field] += value;
    },
  };
}

const padded = (index: number) => String(index).padStart(2, '0');

/**
 * Every counter column of the rollup table, in a fixed order. Histogram
 * buckets are columns (`latency_00` … `latency_24`, `ttft_00` …): each is a
 * count that adds up across instances, where a JSON array could not be
 * merged by one upsert on both SQLite and PostgreSQL.
 */
export const metricColumns: readonly MetricColumn[] = [
  scalar('messages', 'messages'),
  scalar('streamed_messages', 'streamedMessages'),
  scalar('failed_messages', 'failedMessages'),
  ...failureTypes.map((type): MetricColumn => ({
    name: `failed_${type}`,
    wide: false,
    read: (counts) => counts.failures[type],
    add: (counts, value) => {
      counts.failures[type] += value;
    },
  })),
  scalar('tool_calls', 'toolCalls'),
  scalar('input_tokens', 'inputTokens', true),
  scalar('output_tokens', 'outputTokens', true),
  { ...scalar('cached_input_tokens', 'cachedInputTokens', true), addedIn: '0027-cached-input-tokens' },
  scalar('rate_limited', 'rateLimited'),
  scalar('concurrency_rejected', 'concurrencyRejected'),
  scalar('memory_updates', 'memoryUpdates'),
  ...Array.from({ length: histogramSize }, (_, index): MetricColumn => ({
    name: `latency_${padded(index)}`,
    wide: false,
    read: (counts) => counts.latency[index] as number,
    add: (counts, value) => {
      (counts.latency[index] as number) += value;
    },
  })),
  ...Array.from({ length: histogramSize }, (_, index): MetricColumn => ({
    name: `ttft_${padded(index)}`,
    wide: false,
    read: (counts) => counts.timeToFirstToken[index] as number,
    add: (counts, value) => {
      (counts.timeToFirstToken[index] as number) += value;
    },
  })),
  ...runTriggers.map((trigger): MetricColumn => ({
    name: `runs_${trigger}`,
    wide: false,
    addedIn: runTriggerAddedIn[trigger] ?? '0011-runs',
    read: (counts) => counts.runs[trigger],
    add: (counts, value) => {
      counts.runs[trigger] += value;
    },
  })),
  { ...scalar('images_in', 'imagesIn'), addedIn: '0015-files' },
  { ...scalar('images_out', 'imagesOut'), addedIn: '0015-files' },
  // Micro-dollars, so sums stay whole numbers that add across instances like every other column.
  { ...scalar('cost_micro_usd', 'costMicroUsd', true), addedIn: '0026-model-costs' },
  { ...scalar('unpriced_messages', 'unpricedMessages'), addedIn: '0026-model-costs' },
];

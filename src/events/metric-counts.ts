import { runTriggers, type RunTrigger } from '../schemas/runs.js';
/**
 * What the per-agent metrics count, in one shape shared by the in-process
 * recorder, the rollup table and the API views. Every field is a sum, so
 * counts from several instances (and several minutes) merge by addition;
 * that is why the latencies are kept as fixed-bucket histograms rather than
 * samples or running percentiles, which do not add up.
 */

/** Why a message failed after it was accepted; bounded, one rollup column each. */
export const failureTypes = [
  /** The provider could not be reached, answered 5xx, or broke off its answer. */
  'provider_error',
  /** The provider refused this request (a 4xx other than credentials or model). */
  'provider_rejected',
  /** The provider sent nothing, or went silent mid-answer, for AGENTD_PROVIDER_TIMEOUT_MS. */
  'timeout',
  /** The provider's circuit was open: agentd did not call it. */
  'circuit_open',
  /** The provider rejected the credentials (the agent went to `error`). */
  'credentials',
  /** The provider does not know the model (the agent went to `error`). */
  'model_not_found',
  /** Anything else that broke the reply (e.g. storage). */
  'internal',
] as const;
export type FailureType = (typeof failureTypes)[number];

/**
 * Upper bounds (milliseconds) of the latency histogram buckets, about ×1.5
 * apart; one more bucket holds everything above the last bound. A percentile
 * is reported as the upper bound of the bucket that holds it: never below
 * the true value, at most one bucket (≈ ×1.6) above it; above the last bound
 * it is reported as that bound.
 */
export const latencyBoundsMs = [
  5, 10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1000, 1500, 2500, 4000, 6000, 10_000, 15_000, 25_000, 40_000, 60_000,
  100_000, 150_000, 300_000,
] as const;
/** Buckets per histogram: one per bound and the overflow bucket. */
export const histogramSize = latencyBoundsMs.length + 1;

export function histogramBucketOf(milliseconds: number): number {
  let bucket = 0;
  while (bucket < latencyBoundsMs.length && milliseconds > (latencyBoundsMs[bucket] as number)) bucket += 1;
  return bucket;
}

/** The value at `fraction` (0–1) of the samples counted in `histogram`, or null when it holds none. */
export function histogramPercentile(histogram: readonly number[], fraction: number): number | null {
  let total = 0;
  for (const count of histogram) total += count;
  if (total === 0) return null;
  // The rank of the sample, nearest-rank method: the smallest value with at least that share below or at it.
  const rank = Math.max(1, Math.ceil(fraction * total));
  let seen = 0;
  for (let bucket = 0; bucket < histogram.length; bucket += 1) {
    seen += histogram[bucket] as number;
    if (seen >= rank) return latencyBoundsMs[Math.min(bucket, latencyBoundsMs.length - 1)] as number;
  }
  return latencyBoundsMs[latencyBoundsMs.length - 1] as number;
}

export interface MetricCounts {
  messages: number;
  /** Of `messages`, those of each trigger (who started the run). */
  runs: Record<RunTrigger, number>;
  streamedMessages: number;
  failedMessages: number;
  failures: Record<FailureType, number>;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, those read from the provider's prompt cache. */
  cachedInputTokens: number;
  rateLimited: number;
  concurrencyRejected: number;
  /** Long-term memory updates (summary or facts changed, in the background or through the API). */
  memoryUpdates: number;
  /** Images sent with messages (attachments), and images replies produced (a tool made them). */
  imagesIn: number;
  imagesOut: number;
  /** What the replies cost, in millionths of a US dollar (each reply's cost rounded to one). */
  costMicroUsd: number;
  /** Messages whose model has no price (counted at cost 0). */
  unpricedMessages: number;
  /** Counts per bucket of `latencyBoundsMs` (request to reply complete, completed replies). */
  latency: number[];
  /** The same for the time to the first text of streamed replies. */
  timeToFirstToken: number[];
}

export function emptyCounts(): MetricCounts {
  return {
    messages: 0,
    runs: Object.fromEntries(runTriggers.map((trigger) => [trigger, 0])) as Record<RunTrigger, number>,
    streamedMessages: 0,
    failedMessages: 0,
    failures: Object.fromEntries(failureTypes.map((type) => [type, 0])) as Record<FailureType, number>,
    toolCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    rateLimited: 0,
    concurrencyRejected: 0,
    memoryUpdates: 0,
    imagesIn: 0,
    imagesOut: 0,
    costMicroUsd: 0,
    unpricedMessages: 0,
    latency: new Array<number>(histogramSize).fill(0),
    timeToFirstToken: new Array<number>(histogramSize).fill(0),
  };
}

/** Adds `source` into `target`. */
export function addCounts(target: MetricCounts, source: MetricCounts): void {
  target.messages += source.messages;
  for (const trigger of runTriggers) target.runs[trigger] += source.runs[trigger];
  target.streamedMessages += source.streamedMessages;
  target.failedMessages += source.failedMessages;
  for (const type of failureTypes) target.failures[type] += source.failures[type];
  target.toolCalls += source.toolCalls;
  target.inputTokens += source.inputTokens;
  target.outputTokens += source.outputTokens;
  target.cachedInputTokens += source.cachedInputTokens;
  target.rateLimited += source.rateLimited;
  target.concurrencyRejected += source.concurrencyRejected;
  target.memoryUpdates += source.memoryUpdates;
  target.imagesIn += source.imagesIn;
  target.imagesOut += source.imagesOut;
  target.costMicroUsd += source.costMicroUsd;
  target.unpricedMessages += source.unpricedMessages;
  for (let bucket = 0; bucket < histogramSize; bucket += 1) {
    (target.latency[bucket] as number) += source.latency[bucket] as number;
    (target.timeToFirstToken[bucket] as number) += source.timeToFirstToken[bucket] as number;
  }
}

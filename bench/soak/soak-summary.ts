import type { TrafficSummary } from './traffic-tally.js';

/** One line of the sampler's file (bench/soak/sampler.mjs). */
export interface Sample {
  time: string;
  seconds: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  activeResources: number;
  resourceKinds: Record<string, number>;
  fileDescriptors: number | null;
}

export interface SoakWindow {
  trafficStartedAt: number;
  trafficEndedAt: number;
  /** The share of the traffic time counted as warm-up (caches filling, code optimised). */
  warmUpFraction: number;
}

const mib = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const count = points.length;
  if (count < 2) return Number.NaN;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / count;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / count;
  let numerator = 0;
  let denominator = 0;
  for (const [x, y] of points) {
    numerator += (x - meanX) * (y - meanY);
    denominator += (x - meanX) ** 2;
  }
  return numerator / denominator;
}

export type SoakSummary = ReturnType<typeof summarize>;

/**
 * RSS is compared between the tenth of the traffic time right after warm-up
 * and the last tenth, each as the median of its samples: a single sample
 * lands anywhere in the garbage collector's cycle, and between two major
 * collections the heap, and RSS with it, moves by tens of MiB. The lowest
 * heap in each of those windows (just after a major collection) is the best
 * sign of what is really retained.
 */
export function summarize(samples: Sample[], window: SoakWindow, traffic: TrafficSummary) {
  const at = (sample: Sample) => Date.parse(sample.time);
  const trafficMs = window.trafficEndedAt - window.trafficStartedAt;
  const warmUpEndsAt = window.trafficStartedAt + trafficMs * window.warmUpFraction;
  const comparisonMs = trafficMs * 0.1;
  const during = samples.filter(
    (sample) => at(sample) >= window.trafficStartedAt && at(sample) <= window.trafficEndedAt,
  );
  const afterWarmUp = during.filter((sample) => at(sample) >= warmUpEndsAt);
  const warmUpWindow = afterWarmUp.filter((sample) => at(sample) < warmUpEndsAt + comparisonMs);
  const endWindow = during.filter((sample) => at(sample) > window.trafficEndedAt - comparisonMs);
  const before = samples.filter((sample) => at(sample) < window.trafficStartedAt).at(-1);
  const after = samples.filter((sample) => at(sample) > window.trafficEndedAt).at(-1);
  if (warmUpWindow.length === 0 || endWindow.length === 0 || before === undefined || after === undefined) {
    throw new Error(`too few samples (${samples.length}) for a summary: run longer or sample more often`);
  }
  const rssAtWarmUp = median(warmUpWindow.map((sample) => sample.rss));
  const rssAtEnd = median(endWindow.map((sample) => sample.rss));
  const heapAtWarmUp = median(warmUpWindow.map((sample) => sample.heapUsed));
  const heapAtEnd = median(endWindow.map((sample) => sample.heapUsed));
  const hours = (sample: Sample) => (at(sample) - warmUpEndsAt) / 3_600_000;
  const statuses: Record<string, number> = {};
  for (const [key, count] of Object.entries(traffic.answers)) {
    const status = key.slice(key.lastIndexOf(' ') + 1);
    statuses[status] = (statuses[status] ?? 0) + count;
  }
  const requests = Object.values(traffic.answers).reduce((sum, count) => sum + count, 0);
  const serverErrors = Object.entries(statuses)
    .filter(([status]) => /^5\d\d$/.test(status) && status !== '503')
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    trafficStartedAt: new Date(window.trafficStartedAt).toISOString(),
    trafficEndedAt: new Date(window.trafficEndedAt).toISOString(),
    trafficSeconds: Math.round(trafficMs / 1000),
    warmUpSeconds: Math.round((warmUpEndsAt - window.trafficStartedAt) / 1000),
    samples: samples.length,
    comparisonWindowSeconds: Math.round(comparisonMs / 1000),
    requests,
    requestsPerSecond: Math.round((requests / (trafficMs / 1000)) * 10) / 10,
    rssMiB: {
      idleBefore: mib(before.rss),
      atWarmUpEnd: mib(rssAtWarmUp),
      atEnd: mib(rssAtEnd),
      maxAfterWarmUp: mib(Math.max(...afterWarmUp.map((sample) => sample.rss))),
      idleAfter: mib(after.rss),
    },
    rssGrowthPercent: Math.round(((rssAtEnd - rssAtWarmUp) / rssAtWarmUp) * 1000) / 10,
    rssTrendMiBPerHour: Math.round(mib(slope(afterWarmUp.map((sample) => [hours(sample), sample.rss]))) * 10) / 10,
    heapUsedMiB: {
      atWarmUpEnd: mib(heapAtWarmUp),
      atEnd: mib(heapAtEnd),
      maxAfterWarmUp: mib(Math.max(...afterWarmUp.map((sample) => sample.heapUsed))),
      lowestAtWarmUpEnd: mib(Math.min(...warmUpWindow.map((sample) => sample.heapUsed))),
      lowestAtEnd: mib(Math.min(...endWindow.map((sample) => sample.heapUsed))),
    },
    heapTotalMiB: {
      atWarmUpEnd: mib(median(warmUpWindow.map((sample) => sample.heapTotal))),
      atEnd: mib(median(endWindow.map((sample) => sample.heapTotal))),
    },
    heapTrendMiBPerHour:
      Math.round(mib(slope(afterWarmUp.map((sample) => [hours(sample), sample.heapUsed]))) * 10) / 10,
    eventLoopDelayMs: {
      p50Median: median(during.map((sample) => sample.loopDelayP50Ms)),
      p99Median: median(during.map((sample) => sample.loopDelayP99Ms)),
      p99Max: Math.max(...during.map((sample) => sample.loopDelayP99Ms)),
      max: Math.max(...during.map((sample) => sample.loopDelayMaxMs)),
    },
    activeResources: {
      idleBefore: before.activeResources,
      atWarmUpEnd: warmUpWindow[0]!.activeResources,
      atEnd: endWindow.at(-1)!.activeResources,
      maxDuringTraffic: Math.max(...during.map((sample) => sample.activeResources)),
      idleAfter: after.activeResources,
      kindsIdleBefore: before.resourceKinds,
      kindsIdleAfter: after.resourceKinds,
    },
    fileDescriptors: {
      idleBefore: before.fileDescriptors,
      atWarmUpEnd: warmUpWindow[0]!.fileDescriptors,
      atEnd: endWindow.at(-1)!.fileDescriptors,
      maxDuringTraffic: Math.max(...during.map((sample) => sample.fileDescriptors ?? 0)),
      idleAfter: after.fileDescriptors,
    },
    requestsByStatus: statuses,
    ...traffic,
    serverErrorsOtherThan503: serverErrors,
  };
}

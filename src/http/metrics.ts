import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Registry, collectDefaultMetrics } from 'prom-client';

const latencyBounds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Observations per bound (not cumulative); the last slot counts those above every bound. */
  buckets: Float64Array;
}

/**
 * Requests by route template and status: a count and a latency histogram.
 * These are updated on every request, where prom-client's own Counter and
 * Histogram would validate and hash the labels each time; here each label set
 * is resolved once and an observation is a few additions. At scrape time they
 * are handed to prom-client's registry in its metric format, beside its
 * default process metrics, so the exposition is prom-client's.
 */
export class RequestMetrics {
  readonly #series = new Map<string, Series>();

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.#series.get(key);
    if (series === undefined) {
      series = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        buckets: new Float64Array(latencyBounds.length + 1),
      };
      this.#series.set(key, series);
    }
    series.count += 1;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < latencyBounds.length && seconds > (latencyBounds[bucket] as number)) bucket += 1;
    (series.buckets[bucket] as number) += 1;
  }

  /** The request counter, in the shape prom-client's registry reads metrics in. */
  readonly requests = {
    name: 'agentd_http_requests_total',
    get: async () => ({
      name: 'agentd_http_requests_total',
      help: 'HTTP requests by route template and status code.',
      type: 'counter',
      aggregator: 'sum',
      values: [...this.#series.values()].map((series) => ({ labels: series.labels, value: series.count })),
    }),
  };

  /** The latency histogram, in the same shape. */
  readonly duration = {
    name: 'agentd_http_request_duration_seconds',
    get: async () => {
      const name = 'agentd_http_request_duration_seconds';
      const values: Array<{ labels: object; sharedLabels: object; value: number; metricName: string }> = [];
      for (const series of this.#series.values()) {
        const bucket = (le: number | string, value: number) =>
          values.push({ labels: { le }, sharedLabels: series.labels, value, metricName: `${name}_bucket` });
        let cumulative = 0;
        latencyBounds.forEach((bound, index) => {
          cumulative += series.buckets[index] as number;
          bucket(bound, cumulative);
        });
        bucket('+Inf', series.count);
        values.push({ labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${name}_sum` });
        values.push({ labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${name}_count` });
      }
      return {
        name,
        help: 'Time to the response, by route template and status code.',
        type: 'histogram',
        aggregator: 'sum',
        values,
      };
    },
  };
}

export interface Metrics {
  registry: Registry;
  requests: RequestMetrics;
}

/** One registry per app, so several apps in one process (tests) never share counters. */
export function createMetrics(sources: ReadonlyArray<{ register(registry: Registry): void }> = []): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'agentd_' });
  const requests = new RequestMetrics();
  registry.registerMetric(requests.requests as never);
  registry.registerMetric(requests.duration as never);
  // Metrics kept below the HTTP layer (model calls), exposed beside the request metrics.
  for (const source of sources) source.register(registry);
  return { registry, requests };
}

/** Counts every response and logs one line for it; the route label is the template, never the raw URL. */
export function registerRequestObservation(app: FastifyInstance, metrics: Metrics, logger: Logger): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const milliseconds = reply.elapsedTime;
    metrics.requests.record(request.method, route, reply.statusCode, milliseconds / 1000);
    if (logger.isLevelEnabled('info')) {
      logger.info(
        {
          requestId: request.id,
          method: request.method,
          route,
          status: reply.statusCode,
          ms: Math.round(milliseconds * 10) / 10,
        },
        'request completed',
      );
    }
    done();
  });
}

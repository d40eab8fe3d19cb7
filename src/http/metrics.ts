import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route' | 'status'>;
}

/** One registry per app, so several apps in one process (tests) never share counters. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'agentd_' });
  return {
    registry,
    requests: new Counter({
      name: 'agentd_http_requests_total',
      help: 'HTTP requests by route template and status code.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'agentd_http_request_duration_seconds',
      help: 'Time to the response, by route template and status code.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
  };
}

interface LabelledSeries {
  inc(): void;
  observe(seconds: number): void;
}

/** Counts every response and logs one line for it; the route label is the template, never the raw URL. */
export function registerRequestObservation(app: FastifyInstance, metrics: Metrics): void {
  // Label sets are few (routes × methods × statuses): resolve each once, not per request.
  const series = new Map<string, LabelledSeries>();
  const seriesFor = (method: string, route: string, status: number): LabelledSeries => {
    const key = `${method} ${route} ${status}`;
    let found = series.get(key);
    if (found === undefined) {
      const labels = { method, route, status: String(status) };
      const counter = metrics.requests.labels(labels);
      const histogram = metrics.duration.labels(labels);
      found = { inc: () => counter.inc(), observe: (seconds) => histogram.observe(seconds) };
      series.set(key, found);
    }
    return found;
  };

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const observed = seriesFor(request.method, route, reply.statusCode);
    observed.inc();
    observed.observe(reply.elapsedTime / 1000);
    request.log.info(
      { requestId: request.id, method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request completed',
    );
    done();
  });
}

import type { FastifyRequest } from 'fastify';
import type { SpanHandle, Tracing } from '../tracing/tracing.js';
import type { App } from './app-instance.js';

/**
 * A server span per request (OpenTelemetry HTTP conventions), active while
 * the request is handled so the database and model spans it causes are its
 * children in one trace. Named by route template, never by the query string
 * or headers (they can hold user data and keys).
 */
export function registerRequestTracing(app: App, tracing: Tracing): void {
  const spans = new WeakMap<FastifyRequest, SpanHandle>();
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? 'unknown route';
    const span = tracing.startSpan(`${request.method} ${route}`, 'server', {
      'http.request.method': request.method,
      'http.route': route,
      'url.path': request.url.split('?')[0] ?? '/',
    });
    spans.set(request, span);
    // The rest of the request's hooks and its handler run from `done`, so they run inside the span.
    tracing.runWithin(span, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span !== undefined) {
      span.setAttributes({ 'http.response.status_code': reply.statusCode });
      if (reply.statusCode >= 500) span.fail(new Error(String(reply.statusCode)));
      span.end();
    }
    done();
  });
}

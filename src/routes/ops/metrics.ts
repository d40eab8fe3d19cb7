import type { App } from '../../http/app-instance.js';
import type { Metrics } from '../../http/metrics.js';

export function registerMetricsRoute(app: App, metrics: Metrics): void {
  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'metrics',
        tags: ['operations'],
        summary: 'Prometheus metrics (text exposition format)',
        security: [],
      },
    },
    async (_request, reply) => {
      const body = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
}

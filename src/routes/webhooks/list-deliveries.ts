import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { listDeliveries } from '../../services/webhooks/list-deliveries.js';
import { problemResponses } from '../../schemas/common.js';
import { DeliveryList, ListDeliveriesQuery, WebhookIdParams } from '../../schemas/webhooks.js';

export function registerListDeliveries(app: App): void {
  app.get(
    '/v1/webhooks/:webhookId/deliveries',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'manageWebhooks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listWebhookDeliveries',
        tags: ['webhooks'],
        summary: "Read a webhook's delivery log",
        description:
          'Deliveries newest first, each with its state and every attempt (status code, duration, error). ' +
          'Finished deliveries are kept for AGENTD_WEBHOOK_RETENTION_DAYS (7). Scope: `agents:read`.',
        params: WebhookIdParams,
        querystring: ListDeliveriesQuery,
        response: { 200: DeliveryList, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      listDeliveries({ ctx: contextOf(request), webhookId: request.params.webhookId, query: request.query }),
  );
}

import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { redeliver } from '../../services/webhooks/redeliver.js';
import { problemResponses } from '../../schemas/common.js';
import { DeliveryIdParams, DeliverySchema } from '../../schemas/webhooks.js';

export function registerRedeliver(app: App): void {
  app.post(
    '/v1/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'manageWebhooks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'redeliverWebhook',
        tags: ['webhooks'],
        summary: 'Send an event again',
        description:
          'Queues a new delivery of the same event (same `webhook-id` and body) with a fresh retry schedule; ' +
          'answers 202 with it. The webhook must be enabled. Scope: `agents:write`.',
        params: DeliveryIdParams,
        response: { 202: DeliverySchema, ...problemResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const delivery = await redeliver({
        ctx: contextOf(request),
        webhookId: request.params.webhookId,
        deliveryId: request.params.deliveryId,
      });
      return reply.status(202).send(delivery);
    },
  );
}

import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { getWebhook } from '../../services/webhooks/get-webhook.js';
import { problemResponses } from '../../schemas/common.js';
import { WebhookIdParams, WebhookSchema } from '../../schemas/webhooks.js';

export function registerGetWebhook(app: App): void {
  app.get(
    '/v1/webhooks/:webhookId',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'manageWebhooks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getWebhook',
        tags: ['webhooks'],
        summary: 'Get a webhook',
        description: 'The webhook without its secret. Scope: `agents:read`.',
        params: WebhookIdParams,
        response: { 200: WebhookSchema, ...problemResponses(404) },
      },
    },
    async (request) => getWebhook({ ctx: contextOf(request), webhookId: request.params.webhookId }),
  );
}

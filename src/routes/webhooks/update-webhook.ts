import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { updateWebhook } from '../../services/webhooks/update-webhook.js';
import { problemResponses } from '../../schemas/common.js';
import { UpdateWebhookBody, WebhookIdParams, WebhookSchema } from '../../schemas/webhooks.js';

export function registerUpdateWebhook(app: App): void {
  app.patch(
    '/v1/webhooks/:webhookId',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'manageWebhooks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'updateWebhook',
        tags: ['webhooks'],
        summary: 'Change a webhook',
        description:
          'Fields sent replace the stored ones; `description: null` clears it. `enabled: false` stops deliveries, ' +
          'including retries already scheduled. Scope: `agents:write`.',
        params: WebhookIdParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookSchema, ...problemResponses(400, 404, 413, 415) },
      },
    },
    async (request) =>
      updateWebhook({ ctx: contextOf(request), webhookId: request.params.webhookId, patch: request.body }),
  );
}

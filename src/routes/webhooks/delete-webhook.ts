import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { deleteWebhook } from '../../services/webhooks/delete-webhook.js';
import { problemResponses } from '../../schemas/common.js';
import { DeletedWebhook, WebhookIdParams } from '../../schemas/webhooks.js';

export function registerDeleteWebhook(app: App): void {
  app.delete(
    '/v1/webhooks/:webhookId',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'manageWebhooks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'deleteWebhook',
        tags: ['webhooks'],
        summary: 'Delete a webhook',
        description: 'Removes the webhook and its delivery log; nothing more is sent to it. Scope: `agents:write`.',
        params: WebhookIdParams,
        response: { 200: DeletedWebhook, ...problemResponses(404) },
      },
    },
    async (request) => deleteWebhook({ ctx: contextOf(request), webhookId: request.params.webhookId }),
  );
}

import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { rotateWebhookSecret } from '../../services/webhooks/rotate-webhook-secret.js';
import { problemResponses } from '../../schemas/common.js';
import { RotatedSecretSchema, WebhookIdParams } from '../../schemas/webhooks.js';

export function registerRotateWebhookSecret(app: App): void {
  app.post(
    '/v1/webhooks/:webhookId/rotate-secret',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'manageWebhooks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'rotateWebhookSecret',
        tags: ['webhooks'],
        summary: "Replace a webhook's signing secret",
        description:
          'A new `secret`, shown only in this response; every attempt from now on is signed with it. ' +
          'Scope: `agents:write`.',
        params: WebhookIdParams,
        response: { 200: RotatedSecretSchema, ...problemResponses(404) },
      },
    },
    async (request) => rotateWebhookSecret({ ctx: contextOf(request), webhookId: request.params.webhookId }),
  );
}

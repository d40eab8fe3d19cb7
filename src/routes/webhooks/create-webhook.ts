import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { createWebhook } from '../../services/webhooks/create-webhook.js';
import { problemResponses } from '../../schemas/common.js';
import { CreatedWebhookSchema, CreateWebhookBody } from '../../schemas/webhooks.js';

export function registerCreateWebhook(app: App): void {
  app.post(
    '/v1/webhooks',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'manageWebhooks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'createWebhook',
        tags: ['webhooks'],
        summary: 'Subscribe a URL to events',
        description:
          'Events of the account are POSTed to `url`, signed per Standard Webhooks (`webhook-id`, ' +
          '`webhook-timestamp`, `webhook-signature`) with the `secret` of this response, which is never shown ' +
          'again. The URL must reach a public address unless the operator allows private ones. Scope: `agents:write`.',
        body: CreateWebhookBody,
        response: { 201: CreatedWebhookSchema, ...problemResponses(400, 413, 415) },
      },
    },
    async (request, reply) => {
      const created = await createWebhook({ ctx: contextOf(request), input: request.body });
      return reply.status(201).header('location', `/v1/webhooks/${created.id}`).send(created);
    },
  );
}

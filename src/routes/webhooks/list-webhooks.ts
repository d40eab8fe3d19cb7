import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { listWebhooks } from '../../services/webhooks/list-webhooks.js';
import { problemResponses } from '../../schemas/common.js';
import { ListWebhooksQuery, WebhookList } from '../../schemas/webhooks.js';

export function registerListWebhooks(app: App): void {
  app.get(
    '/v1/webhooks',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'manageWebhooks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listWebhooks',
        tags: ['webhooks'],
        summary: 'List webhooks',
        description:
          "The account's webhooks, newest first, by `page` or by following `nextCursor`; never their secrets. " +
          'Scope: `agents:read`.',
        querystring: ListWebhooksQuery,
        response: { 200: WebhookList, ...problemResponses(400) },
      },
    },
    async (request) => listWebhooks({ ctx: contextOf(request), query: request.query }),
  );
}

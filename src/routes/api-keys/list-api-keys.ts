import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { listApiKeys } from '../../services/api-keys.js';
import { problemResponses } from '../../schemas/common.js';
import { ApiKeyList } from '../../schemas/api-keys.js';

export function registerListApiKeys(app: App): void {
  app.get(
    '/v1/api-keys',
    {
      config: { operation: { scope: 'keys:manage', rateLimit: 'manageKeys', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listApiKeys',
        tags: ['api-keys'],
        summary: "List the account's active API keys",
        description: 'Never includes the keys themselves. Revoked keys are not listed. Scope: `keys:manage`.',
        response: { 200: ApiKeyList, ...problemResponses() },
      },
    },
    async (request) => ({ data: await listApiKeys({ ctx: contextOf(request) }) }),
  );
}

import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { revokeApiKey } from '../../services/api-keys.js';
import { problemResponses } from '../../schemas/common.js';
import { ApiKeyIdParams, RevokedApiKey } from '../../schemas/api-keys.js';

export function registerRevokeApiKey(app: App): void {
  app.delete(
    '/v1/api-keys/:keyId',
    {
      config: { operation: { scope: 'keys:manage', rateLimit: 'manageKeys', rateLimitPer: 'account' } },
      schema: {
        operationId: 'revokeApiKey',
        tags: ['api-keys'],
        summary: 'Revoke an API key',
        description:
          'Takes effect on the next request, on every instance. A key may revoke itself. ' +
          'An unknown or already revoked key is 404. Scope: `keys:manage`.',
        params: ApiKeyIdParams,
        response: { 200: RevokedApiKey, ...problemResponses(404) },
      },
    },
    async (request) => revokeApiKey({ ctx: contextOf(request), keyId: request.params.keyId }),
  );
}

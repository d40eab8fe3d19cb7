import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { listApiKeys } from '../../services/api-keys.js';
import { problemResponses } from '../../schemas/common.js';
import { ApiKeyList, ListApiKeysQuery } from '../../schemas/api-keys.js';

export function registerListApiKeys(app: App): void {
  app.get(
    '/v1/api-keys',
    {
      config: { operation: { scope: 'keys:manage', rateLimit: 'manageKeys', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listApiKeys',
        tags: ['api-keys'],
        summary: "List the account's API keys",
        description:
          'Oldest first, with when each was last used (to the minute); never the keys themselves. Revoked keys ' +
          'are listed only with `include=revoked`. Scope: `keys:manage`.',
        querystring: ListApiKeysQuery,
        response: { 200: ApiKeyList, ...problemResponses(400) },
      },
    },
    async (request) => ({
      data: await listApiKeys({ ctx: contextOf(request), includeRevoked: request.query.include === 'revoked' }),
    }),
  );
}

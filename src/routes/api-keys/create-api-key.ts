import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { createApiKey } from '../../services/api-keys.js';
import { problemResponses } from '../../schemas/common.js';
import { CreateApiKeyBody, CreatedApiKeySchema } from '../../schemas/api-keys.js';

export function registerCreateApiKey(app: App): void {
  app.post(
    '/v1/api-keys',
    {
      config: { operation: { scope: 'keys:manage', rateLimit: 'manageKeys', rateLimitPer: 'account' } },
      schema: {
        operationId: 'createApiKey',
        tags: ['api-keys'],
        summary: 'Create an API key',
        description: 'The plaintext `key` is in this response only; store it now. Scope: `keys:manage`.',
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKeySchema, ...problemResponses(400, 413, 415) },
      },
      // Every field is optional, so a request without a body means "all defaults".
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const issued = await createApiKey({ ctx: contextOf(request), input: request.body });
      return reply.status(201).send(issued);
    },
  );
}

import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { authenticate } from '../services/api-keys.js';
import type { ServiceDeps } from '../services/context.js';

const bearer = /^Bearer[ ]+(\S+)[ ]*$/i;

/**
 * Every route with an operation config needs `Authorization: Bearer <key>`.
 * A bad key gets the same 401 on every route; a good key without the route's
 * scope gets 403 before anything else about the request is looked at.
 */
export function registerAuthentication(app: FastifyInstance, deps: ServiceDeps): void {
  app.decorateRequest('serviceContext', null);
  app.addHook('onRequest', async (request) => {
    const operation = request.routeOptions.config.operation;
    if (operation === undefined) return;
    const header = request.headers.authorization;
    const token = header === undefined ? null : (bearer.exec(header)?.[1] ?? null);
    const actor = await authenticate({ deps, token });
    request.serviceContext = { deps, actor, requestId: request.id };
    if (!actor.scopes.has(operation.scope)) {
      throw new AppError('insufficient_scope', `This API key lacks the ${operation.scope} scope.`);
    }
  });
}

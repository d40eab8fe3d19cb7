import type { FastifyInstance, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../errors.js';
import { authenticate, authenticateNow } from '../services/api-keys.js';
import type { Actor, ServiceDeps } from '../services/context.js';
import type { OperationConfig } from './operation.js';

const bearer = /^Bearer[ ]+(\S+)[ ]*$/i;

/** Authenticates a request, then calls `done` (with the error that refuses it, if any). */
export type Authenticator = (request: FastifyRequest, done: HookHandlerDoneFunction) => void;

/**
 * Every route with an operation config needs `Authorization: Bearer <key>`.
 * A bad key gets the same 401 on every route; a good key without the route's
 * scope gets 403 before anything else about the request is looked at.
 *
 * Callback-style, with a synchronous path: where the key can be read at once
 * (SQLite's committed-read cache), the request goes on without a promise.
 * Decorates requests with their service context; returns the check that the
 * request admission hook (`request-admission.ts`) runs.
 */
export function registerAuthentication(app: FastifyInstance, deps: ServiceDeps): Authenticator {
  app.decorateRequest('serviceContext', null);

  const admit = (request: FastifyRequest, operation: OperationConfig, actor: Actor, done: HookHandlerDoneFunction) => {
    request.serviceContext = { deps, actor, requestId: request.id };
    if (operation.scope !== null && !actor.scopes.has(operation.scope)) {
      done(new AppError('insufficient_scope', `This API key lacks the ${operation.scope} scope.`));
      return;
    }
    done();
  };

  return (request, done) => {
    const operation = request.routeOptions.config.operation;
    if (operation === undefined) {
      done();
      return;
    }
    const header = request.headers.authorization;
    const token = header === undefined ? null : (bearer.exec(header)?.[1] ?? null);
    let actor: Actor | undefined;
    try {
      actor = authenticateNow({ deps, token });
    } catch (error) {
      done(error as Error);
      return;
    }
    if (actor !== undefined) {
      admit(request, operation, actor, done);
      return;
    }
    authenticate({ deps, token }).then((found) => admit(request, operation, found, done), done);
  };
}

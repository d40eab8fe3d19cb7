import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../services/context.js';
import { registerAuthentication } from './authentication.js';
import { queryLimitError } from './query-limit.js';

/**
 * What every request goes through before its route: its X-Request-Id on the
 * response, the query-string bound, then the API key. One callback-style hook
 * rather than one per step: each hook Fastify runs costs every request, and
 * `GET /v1/agents/{id}` is short enough for that to show (see "Fewer
 * steps per request" in bench/README.md).
 */
export function registerRequestAdmission(
  app: FastifyInstance,
  { maxQueryBytes, services }: { maxQueryBytes: number; services: ServiceDeps },
): void {
  const authenticate = registerAuthentication(app, services);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    const refused = queryLimitError(request.url, maxQueryBytes);
    if (refused !== null) {
      done(refused);
      return;
    }
    authenticate(request, done);
  });
}

import type { FastifySchema, RouteOptions } from 'fastify';
import type { OperationConfig } from './operation.js';

/**
 * Publishes, on each authenticated operation of the OpenAPI document, the
 * scope its key needs: as the bearer requirement's scopes (OpenAPI 3.1 lets
 * non-OAuth schemes list role names there) and as `x-scope`, where null says
 * any valid key will do. Both come from the route's `config.operation`, the
 * same value the authentication hook enforces, so the document cannot drift
 * from what is checked; clients and the security suite read it from here.
 */
export function withPublishedScope({
  schema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route: RouteOptions;
}): {
  schema: FastifySchema;
  url: string;
} {
  const operation = (route.config as { operation?: OperationConfig } | undefined)?.operation;
  if (operation === undefined) return { schema, url };
  // `x-` extensions are copied into the document by @fastify/swagger but are not part of FastifySchema's type.
  const documented: FastifySchema & { 'x-scope': OperationConfig['scope'] } = {
    ...schema,
    security: [{ bearerAuth: operation.scope === null ? [] : [operation.scope] }],
    'x-scope': operation.scope,
  };
  return { schema: documented, url };
}

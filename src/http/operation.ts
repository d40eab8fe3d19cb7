import type { FastifyRequest } from 'fastify';
import type { RateLimitName } from '../config.js';
import { AppError } from '../errors.js';
import type { Scope, ServiceContext } from '../services/context.js';

/**
 * What the hooks need to know about a route, declared in its `config`:
 * whether it needs a key, which scope, and which rate limit applies.
 */
export interface OperationConfig {
  /** Scope the key must carry, checked before the body is even validated; null when any valid key will do. */
  scope: Scope | null;
  /**
   * Per-minute limit that applies, counted per account, per agent (`agentId` path parameter), or per agent
   * named in the body (`body-agent`: counted by the route once it has found the agent).
   */
  rateLimit: RateLimitName;
  rateLimitPer: 'account' | 'agent' | 'body-agent';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    operation?: OperationConfig;
  }
  interface FastifyRequest {
    serviceContext: ServiceContext | null;
  }
}

/** The service context the authentication hook attached to this request. */
export function contextOf(request: FastifyRequest): ServiceContext {
  if (request.serviceContext === null) throw new AppError('internal', 'Route is missing its operation config');
  return request.serviceContext;
}

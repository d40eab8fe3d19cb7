import type { FastifyInstance } from 'fastify';
import type { RateLimitSettings } from '../config.js';
import { AppError } from '../errors.js';
import type { RateLimiter } from '../limits/rate-limiter.js';

const windowMs = 60_000;

/**
 * Applies the route's per-minute limit after authentication and sets the
 * X-RateLimit-* headers on every authenticated response, errors included.
 * Hand-written rather than @fastify/rate-limit: the contract's Reset header is
 * an absolute Unix time, limits are keyed by account or by (account, agent),
 * and the store must be exact under concurrent bursts across instances.
 */
export function registerRateLimits(
  app: FastifyInstance,
  limiter: RateLimiter,
  settings: RateLimitSettings | null,
): void {
  if (settings === null) return;
  app.addHook('onRequest', async (request, reply) => {
    const operation = request.routeOptions.config.operation;
    const context = request.serviceContext;
    if (operation === undefined || context === null) return;
    const limit = settings.perMinute[operation.rateLimit];
    let key = `${operation.rateLimit}:${context.actor.accountId}`;
    if (operation.rateLimitPer === 'agent') {
      // Keyed by account too: nobody can spend another account's budget for an agent id.
      key += `:${(request.params as { agentId?: string }).agentId ?? ''}`;
    }
    const decision = await limiter.consume(key, limit, windowMs);
    reply.header('x-ratelimit-limit', String(decision.limit));
    reply.header('x-ratelimit-remaining', String(decision.remaining));
    reply.header('x-ratelimit-reset', String(Math.ceil(decision.resetAt / 1000)));
    if (!decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      throw new AppError(
        'rate_limited',
        `The limit of ${limit} requests per minute for ${operation.rateLimit} is used up; retry in ${retryAfter} s.`,
        {
          headers: { 'retry-after': String(retryAfter) },
        },
      );
    }
  });
}

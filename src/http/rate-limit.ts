import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitName, RateLimitSettings } from '../config.js';
import { AppError } from '../errors.js';
import { agentRateKey } from '../limits/rate-keys.js';
import type { AgentMetricsRecorder } from '../events/agent-metrics-recorder.js';
import { isId } from '../ids.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { OperationConfig } from './operation.js';

const windowMs = 60_000;

/**
 * Applies the route's per-minute limit after authentication and sets the
 * X-RateLimit-* headers on every authenticated response, errors included.
 * Hand-written rather than @fastify/rate-limit: the contract's Reset header is
 * an absolute Unix time, limits are keyed by account or by (account, agent),
 * and the store must be exact under concurrent bursts across instances.
 */
/**
 * Counts a request of a route whose agent is named in the body
 * (`rateLimitPer: 'body-agent'`): the route calls it once it knows the agent,
 * so the budget is the agent's whichever way the body named it.
 */
export type AgentRateLimit = (request: FastifyRequest, reply: FastifyReply, agentId: string) => Promise<void>;

/**
 * A per-minute limit counted outside a route's hooks: the MCP server's tool
 * calls, which name their agent inside a JSON-RPC message. The same keys as
 * the routes', so every door to an agent spends one budget.
 */
export function createRateCheck(
  limiter: RateLimiter,
  settings: RateLimitSettings | null,
  agentMetrics: AgentMetricsRecorder,
): (limitName: RateLimitName, accountId: string, agentId: string | null) => Promise<void> {
  if (settings === null) return async () => {};
  return async (limitName, accountId, agentId) => {
    const limit = settings.perMinute[limitName];
    const key = agentId === null ? `${limitName}:${accountId}` : agentRateKey(limitName, accountId, agentId);
    const decision = await limiter.consume(key, limit, windowMs);
    if (decision.allowed) return;
    if (limitName === 'sendMessage' && agentId !== null && isId('agent', agentId)) {
      agentMetrics.rateLimited({ accountId, agentId });
    }
    const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    throw new AppError(
      'rate_limited',
      `The limit of ${limit} requests per minute for ${limitName} is used up; retry in ${retryAfter} s.`,
      { headers: { 'retry-after': String(retryAfter) } },
    );
  };
}

export function registerRateLimits(
  app: FastifyInstance,
  limiter: RateLimiter,
  settings: RateLimitSettings | null,
  agentMetrics: AgentMetricsRecorder,
): AgentRateLimit {
  if (settings === null) return async () => {};
  const consume = async (
    request: FastifyRequest,
    reply: FastifyReply,
    operation: OperationConfig,
    key: string,
    agentId: string | null = null,
  ) => {
    const limit = settings.perMinute[operation.rateLimit];
    const decision = await limiter.consume(key, limit, windowMs);
    reply.header('x-ratelimit-limit', String(decision.limit));
    reply.header('x-ratelimit-remaining', String(decision.remaining));
    reply.header('x-ratelimit-reset', String(Math.ceil(decision.resetAt / 1000)));
    if (!decision.allowed) {
      // A refused message counts in its agent's metrics; an id that cannot be an agent's is not recorded.
      if (operation.rateLimit === 'sendMessage' && agentId !== null && isId('agent', agentId)) {
        agentMetrics.rateLimited({ accountId: request.serviceContext!.actor.accountId, agentId });
      }
      const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      throw new AppError(
        'rate_limited',
        `The limit of ${limit} requests per minute for ${operation.rateLimit} is used up; retry in ${retryAfter} s.`,
        {
          headers: { 'retry-after': String(retryAfter) },
        },
      );
    }
  };
  app.addHook('onRequest', async (request, reply) => {
    const operation = request.routeOptions.config.operation;
    const context = request.serviceContext;
    if (operation === undefined || context === null || operation.rateLimitPer === 'body-agent') return;
    let agentId: string | null = null;
    let key = `${operation.rateLimit}:${context.actor.accountId}`;
    if (operation.rateLimitPer === 'agent') {
      agentId = (request.params as { agentId?: string }).agentId ?? '';
      key = agentRateKey(operation.rateLimit, context.actor.accountId, agentId);
    }
    await consume(request, reply, operation, key, agentId);
  });
  return async (request, reply, agentId) => {
    const operation = request.routeOptions.config.operation;
    const context = request.serviceContext;
    if (operation === undefined || context === null) return;
    // The same key as a per-agent route's: both doors to an agent share its budget.
    await consume(
      request,
      reply,
      operation,
      agentRateKey(operation.rateLimit, context.actor.accountId, agentId),
      agentId,
    );
  };
}

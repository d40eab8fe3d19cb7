import { AppError } from '../../errors.js';
import { ModelGateway } from '../../providers/model-gateway.js';
import type { ProviderError } from '../../providers/provider-error.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import type { ServiceContext } from '../context.js';
import { markAgentFaulted } from './agent-availability.js';
import type { Exchange } from './exchange-store.js';
import { recordMessageFailed } from './message-events.js';

/**
 * What a failed model call means for the client and for the agent: faults the
 * owner must fix put the agent in `error` (503 `agent_unavailable`); every
 * other failure is transient, leaves the status alone and is 503
 * `provider_unavailable` with a Retry-After.
 */
export async function appErrorForFailure(
  ctx: ServiceContext,
  agent: AgentRecord,
  failure: ProviderError,
  exchange: Exchange,
): Promise<AppError> {
  const error = await errorForFailure(ctx, agent, failure);
  await recordMessageFailed(ctx, exchange, error);
  return error;
}

async function errorForFailure(ctx: ServiceContext, agent: AgentRecord, failure: ProviderError): Promise<AppError> {
  if (failure.needsOwner) return markAgentFaulted(ctx, agent, failure.message);
  ctx.deps.logger.warn(
    {
      agentId: agent.id,
      provider: agent.profile.model.provider,
      failure: failure.kind,
      status: failure.statusCode,
      requestId: ctx.requestId,
    },
    'model call failed',
  );
  const retryAfter = ModelGateway.retryAfterSeconds(failure);
  return new AppError('provider_unavailable', `${failure.message} Retry in ${retryAfter} s.`, {
    headers: { 'retry-after': String(retryAfter) },
  });
}

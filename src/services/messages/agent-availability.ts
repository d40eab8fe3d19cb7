import { isoTime } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { recordAgentEvent, statusChangeData } from '../../events/agent-events.js';
import type { ServiceContext } from '../context.js';
import { eventWriterOf } from '../events/event-writer.js';

/**
 * The lifecycle rules a message meets (contract §7): only `active` agents
 * answer; faults only the owner can fix put the agent in `error` with a
 * reason they can act on, and a PATCH brings it back.
 */

/** The 503 for an agent that was already not `active` when asked (not one the request itself put in `error`). */
export class AgentNotActiveError extends AppError {
  constructor(detail: string) {
    super('agent_unavailable', detail);
  }
}

function detailOf(agent: AgentRecord, status: 'inactive' | 'error', reason: string | null): string {
  return status === 'inactive'
    ? `Agent ${agent.id} is inactive (paused by its owner)${reason ? `: ${reason}` : ''}. PATCH its status to active to resume.`
    : `Agent ${agent.id} is in error: ${reason ?? 'no reason recorded'} Fix the cause, then PATCH its status to active (or give it a new model).`;
}

/** Puts the agent in `error` (unless its owner changed it meanwhile) and returns the 503 for this request. */
export async function markAgentFaulted(ctx: ServiceContext, agent: AgentRecord, reason: string): Promise<AppError> {
  const { repositories, clock, logger } = ctx.deps;
  const written = await repositories.db.transaction().execute(async (transaction) => {
    if (!(await repositories.agents.setStatus(agent, 'error', reason, isoTime(clock.now()), transaction))) return false;
    const data = statusChangeData(agent.status, 'error', reason, 'service');
    await recordAgentEvent(eventWriterOf(ctx, 'service'), agent, 'agent.status_changed', data, transaction);
    return true;
  });
  if (written) {
    ctx.deps.webhooks.outbox.committed();
    logger.warn(
      { agentId: agent.id, from: agent.status, to: 'error', reason, requestId: ctx.requestId },
      'agent status changed',
    );
  }
  return new AppError('agent_unavailable', detailOf(agent, 'error', reason));
}

/** Throws 503 `agent_unavailable` unless the agent can answer with its model on this server. */
export async function ensureAnswering(ctx: ServiceContext, agent: AgentRecord): Promise<void> {
  if (agent.status !== 'active') throw new AgentNotActiveError(detailOf(agent, agent.status, agent.statusReason));
  const { model } = agent.profile;
  const problem = ctx.deps.providers.problemWith(model);
  if (problem) throw await markAgentFaulted(ctx, agent, `Its model ${problem.message}.`);
  if (model.apiKey && !ctx.deps.allowAgentModelKeys) {
    throw await markAgentFaulted(
      ctx,
      agent,
      'It has its own model.apiKey, but per-agent model keys are disabled on this server; remove the key.',
    );
  }
}

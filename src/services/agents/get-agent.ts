import { notFound } from '../../errors.js';
import type { Agent } from '../../schemas/agents.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import type { Executor } from '../../storage/schema.js';
import { requireScope, type ServiceContext } from '../context.js';
import { toAgentView } from './agent-profile.js';

/** The caller's agent, or 404: another account's agent is indistinguishable from a missing one. */
export async function findOwnAgent(
  ctx: ServiceContext,
  agentId: string,
  executor?: Executor,
  lock = false,
): Promise<AgentRecord> {
  const record = await ctx.deps.repositories.agents.find(ctx.actor.accountId, agentId, executor, lock);
  if (record === null) throw notFound('Agent');
  return record;
}

export async function getAgent({ ctx, agentId }: { ctx: ServiceContext; agentId: string }): Promise<Agent> {
  requireScope(ctx, 'agents:read');
  return toAgentView(await findOwnAgent(ctx, agentId));
}

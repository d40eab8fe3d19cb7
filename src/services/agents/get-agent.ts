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

/**
 * The same, synchronously, where the agent can be read without waiting
 * (SQLite); undefined otherwise, and the caller then uses `getAgent`. A
 * request served this way makes no promise, which is a measurable part of
 * the cheapest request of the API (see "Fewer steps per request" in bench/README.md).
 */
export function getAgentNow({ ctx, agentId }: { ctx: ServiceContext; agentId: string }): Agent | undefined {
  requireScope(ctx, 'agents:read');
  const record = ctx.deps.repositories.agents.findNow(ctx.actor.accountId, agentId);
  if (record === null) throw notFound('Agent');
  return record === undefined ? undefined : toAgentView(record);
}

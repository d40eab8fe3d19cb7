import type { AgentPlatformListView, AgentPlatformReportView } from '../../schemas/platforms.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';

/**
 * Each platform entry of the agent with its connector's state, as recorded in
 * the database by whichever instance runs it, so every instance answers the
 * same. What the agent says decides first: an entry that should not run is
 * `stopped` (or `unsupported`) whatever was recorded last.
 */
export async function listAgentPlatforms({
  ctx,
  agentId,
}: {
  ctx: ServiceContext;
  agentId: string;
}): Promise<AgentPlatformListView> {
  requireScope(ctx, 'agents:read');
  const agent = await findOwnAgent(ctx, agentId);
  const recorded = new Map(
    (await ctx.deps.repositories.platformStates.list(agent.id)).map((record) => [record.type, record]),
  );
  const data = agent.profile.platforms.map((entry): AgentPlatformReportView => {
    const record = recorded.get(entry.type);
    const base = { type: entry.type, enabled: entry.enabled, lastEventAt: record?.lastEventAt ?? null };
    if (ctx.deps.platforms.catalog.definitionOf(entry.type) === undefined) {
      return { ...base, state: 'unsupported', reason: `this server has no ${entry.type} connector`, instance: null };
    }
    if (!entry.enabled) return { ...base, state: 'stopped', reason: 'the platform is disabled', instance: null };
    if (agent.status !== 'active') {
      // The connector's own failure is the more useful reason when it is what put the agent in error.
      if (agent.status === 'error' && record?.state === 'error') {
        return { ...base, state: 'error', reason: record.reason, instance: null };
      }
      return { ...base, state: 'stopped', reason: `the agent is ${agent.status}`, instance: null };
    }
    if (record === undefined) return { ...base, state: 'stopped', reason: 'starting', instance: null };
    return { ...base, state: record.state, reason: record.reason, instance: record.holder };
  });
  return { data };
}

import type { AgentPlatformListView, AgentPlatformReportView } from '../../schemas/platforms.js';
import type { PlatformState, PlatformStateRecord } from '../../storage/repositories/platform-states.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';

interface Condition {
  status: PlatformState;
  statusReason: string | null;
  instance: string | null;
}

/**
 * Each platform entry of the agent with its connector's status, as recorded in
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
    const known = ctx.deps.platforms.catalog.definitionOf(entry.type) !== undefined;
    const condition = conditionOf(agent, entry, known, record);
    return {
      type: entry.type,
      enabled: entry.enabled,
      status: condition.status,
      statusReason: condition.statusReason,
      // The former names of `status` and `statusReason`, still sent for clients written against them.
      state: condition.status,
      reason: condition.statusReason,
      lastEventAt: record?.lastEventAt ?? null,
      instance: condition.instance,
    };
  });
  return { data };
}

function conditionOf(
  agent: AgentRecord,
  entry: AgentRecord['profile']['platforms'][number],
  known: boolean,
  record: PlatformStateRecord | undefined,
): Condition {
  if (!known)
    return { status: 'unsupported', statusReason: `this server has no ${entry.type} connector`, instance: null };
  if (!entry.enabled) return { status: 'stopped', statusReason: 'the platform is disabled', instance: null };
  if (agent.status !== 'active') {
    // The connector's own failure is the more useful reason when it is what put the agent in error.
    if (agent.status === 'error' && record?.state === 'error') {
      return { status: 'error', statusReason: record.reason, instance: null };
    }
    return { status: 'stopped', statusReason: `the agent is ${agent.status}`, instance: null };
  }
  if (record === undefined) return { status: 'stopped', statusReason: 'starting', instance: null };
  return { status: record.state, statusReason: record.reason, instance: record.holder };
}

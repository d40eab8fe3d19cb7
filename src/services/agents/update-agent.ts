import { isoTime } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { Agent, UpdateAgentInput } from '../../routes/agents/schemas.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { requireScope, type ServiceContext } from '../context.js';
import { applyAgentPatch, toAgentView } from './agent-profile.js';
import { findOwnAgent } from './get-agent.js';

const maxAttempts = 5;

function unchanged(current: AgentRecord, next: AgentRecord): boolean {
  return (
    current.name === next.name &&
    current.status === next.status &&
    current.statusReason === next.statusReason &&
    current.deletionProtection === next.deletionProtection &&
    JSON.stringify(current.profile) === JSON.stringify(next.profile)
  );
}

/**
 * JSON Merge Patch of an agent. Read, merge and write are retried when another
 * update wins the race (optimistic concurrency on `version`), so concurrent
 * patches of different fields never lose each other's changes.
 */
export async function updateAgent({
  ctx,
  agentId,
  patch,
}: {
  ctx: ServiceContext;
  agentId: string;
  patch: UpdateAgentInput;
}): Promise<Agent> {
  requireScope(ctx, 'agents:write');
  const { agents } = ctx.deps.repositories;
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    const current = await findOwnAgent(ctx, agentId);
    const patched = applyAgentPatch(ctx.deps, current, patch);
    const now = isoTime(ctx.deps.clock.now());
    const next: AgentRecord = {
      ...current,
      ...patched,
      version: current.version + 1,
      updatedAt: now > current.updatedAt ? now : current.updatedAt,
    };
    if (unchanged(current, next)) return toAgentView(current);
    if (await agents.update(current, next)) {
      if (current.status !== next.status) {
        ctx.deps.logger.info(
          { agentId, from: current.status, to: next.status, reason: 'updated by its owner', requestId: ctx.requestId },
          'agent status changed',
        );
      }
      return toAgentView(next);
    }
  }
  throw new AppError('internal', 'The agent kept changing while it was being updated; try again.');
}

import { isoTime } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { Agent, UpdateAgentInput } from '../../schemas/agents.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { agentChanges } from '../../events/agent-changes.js';
import { ownerStatusReason, recordAgentEvent, statusChangeData } from '../../events/agent-events.js';
import { requireScope, type ServiceContext } from '../context.js';
import { eventWriterOf } from '../events/event-writer.js';
import { checkKnowledgeBases } from '../knowledge-bases/attachments.js';
import { applyAgentPatch, checkPluginsFurther, toAgentView } from './agent-profile.js';
import { findOwnAgent } from './get-agent.js';
import { configurationChanged, recordAgentVersion } from '../agent-versions/record-version.js';

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
 * JSON Merge Patch of an agent. The row is read, merged and written in one
 * transaction holding its lock, so concurrent patches of different fields
 * apply one after the other and none is lost.
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
  const { agents, db } = ctx.deps.repositories;
  if (patch.plugins) {
    // Before the row is locked, as a plugin's check may fetch a document; after the agent is known to be the
    // caller's, so that nobody else's agent answers anything but 404.
    const found = await findOwnAgent(ctx, agentId);
    // The patch's own problems (a kept secret whose entry moved, say) are told before a check fetches anything
    // the refused entry names; applied again below, under the row's lock, to what is stored then.
    applyAgentPatch(ctx.deps, found, patch);
    await checkPluginsFurther(ctx.deps, patch.plugins);
  }
  const { current, next } = await db.transaction().execute(async (transaction) => {
    const current = await findOwnAgent(ctx, agentId, transaction, true);
    const patched = applyAgentPatch(ctx.deps, current, patch);
    const now = isoTime(ctx.deps.clock.now());
    const next: AgentRecord = {
      ...current,
      ...patched,
      updatedAt: now > current.updatedAt ? now : current.updatedAt,
    };
    if (unchanged(current, next)) return { current, next: current };
    // A status alone is not configuration: no new version for it (docs/versions.md).
    const newVersion = configurationChanged(current, next);
    if (newVersion) next.version = current.version + 1;
    if (!(await agents.update(current, next, transaction))) {
      throw new AppError('internal', 'The agent changed while it was locked for this update.');
    }
    if (JSON.stringify(current.profile.knowledge) !== JSON.stringify(next.profile.knowledge)) {
      await ctx.deps.repositories.knowledge.replace(current.id, next.profile.knowledge, transaction);
    }
    const knowledgeBases = next.profile.knowledgeBases ?? [];
    if (JSON.stringify(current.profile.knowledgeBases ?? []) !== JSON.stringify(knowledgeBases)) {
      // Checked in the transaction, so a base deleted meanwhile cannot be attached.
      await checkKnowledgeBases(ctx, knowledgeBases, transaction);
      await ctx.deps.repositories.knowledgeBases.attach(current.accountId, current.id, knowledgeBases, transaction);
    }
    const writer = eventWriterOf(ctx);
    await recordAgentEvent(writer, next, 'agent.updated', { ...agentChanges(current, next) }, transaction);
    if (current.status !== next.status) {
      const data = statusChangeData(current.status, next.status, ownerStatusReason, writer.actor);
      await recordAgentEvent(writer, next, 'agent.status_changed', data, transaction);
    }
    if (newVersion) await recordAgentVersion(ctx, { agent: next, previous: current, source: 'update' }, transaction);
    return { current, next };
  });
  if (next !== current) ctx.deps.webhooks.outbox.committed();
  // The agent's plugin connections belong to its previous version.
  if (next !== current) await ctx.deps.plugins.toolsets.forget(agentId);
  if (current.status !== next.status) {
    ctx.deps.logger.info(
      { agentId, from: current.status, to: next.status, reason: ownerStatusReason, requestId: ctx.requestId },
      'agent status changed',
    );
  }
  return toAgentView(next);
}

import { isoTime } from '../../clock.js';
import { newId } from '../../ids.js';
import { configurationOf, type VersionSource } from '../../storage/repositories/agent-versions.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import type { Executor } from '../../storage/schema.js';
import type { ServiceContext } from '../context.js';
import { changedFields } from './views.js';

/** Whether two states of an agent differ in configuration (anything but status and its reason). */
export function configurationChanged(before: AgentRecord, after: AgentRecord): boolean {
  return (
    before.name !== after.name ||
    before.deletionProtection !== after.deletionProtection ||
    JSON.stringify(before.profile) !== JSON.stringify(after.profile)
  );
}

/**
 * Records `agent` (as written, with its new `version`) as a version of its
 * configuration, and the `agent.version_created` webhook event, in `transaction`:
 * the transaction of the change itself, so that a version exists exactly
 * when the change does. `previous` is the agent before the change (none on
 * create); the version notes which top-level fields differ from it.
 */
export async function recordAgentVersion(
  ctx: ServiceContext,
  change: { agent: AgentRecord; previous: AgentRecord | null; source: VersionSource; restoredFrom?: number },
  transaction: Executor,
): Promise<void> {
  const { agent, previous } = change;
  const createdAt = isoTime(ctx.deps.clock.now());
  const configuration = configurationOf(agent);
  const fields = previous === null ? [] : changedFields(configurationOf(previous), configuration);
  await ctx.deps.repositories.agentVersions.insert(
    {
      agentId: agent.id,
      accountId: agent.accountId,
      version: agent.version,
      keyId: ctx.actor.keyId,
      source: change.source,
      restoredFrom: change.restoredFrom ?? null,
      fields,
      configuration,
      createdAt,
    },
    transaction,
  );
  // For webhooks only: the agent's trail already has the change itself (agent.created, agent.updated), and
  // the versions list is the trail of versions.
  await ctx.deps.webhooks.outbox.enqueue(
    {
      id: newId('event'),
      accountId: agent.accountId,
      type: 'agent.version_created',
      data: {
        agentId: agent.id,
        actor: ctx.actor.keyId,
        requestId: ctx.requestId,
        version: agent.version,
        keyId: ctx.actor.keyId,
        createdAt,
      },
      occurredAt: createdAt,
    },
    transaction,
  );
}

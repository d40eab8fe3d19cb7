import { isoTime } from '../../clock.js';
import { AppError, notFound } from '../../errors.js';
import { agentChanges } from '../../events/agent-changes.js';
import { recordAgentEvent } from '../../events/agent-events.js';
import type { Agent } from '../../schemas/agents.js';
import {
  secretReference,
  type AgentConfiguration,
  type VersionSecret,
} from '../../storage/repositories/agent-versions.js';
import type { AgentProfile, AgentRecord, StoredSecret } from '../../storage/repositories/agents.js';
import { requireScope, type ServiceContext } from '../context.js';
import { eventWriterOf } from '../events/event-writer.js';
import { checkProfile, toAgentView } from '../agents/agent-profile.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { configurationChanged, recordAgentVersion } from './record-version.js';

/** Every secret the agent holds now, by the reference a version keeps of it. */
export function heldSecrets(profile: AgentProfile): Map<string, StoredSecret> {
  const held = new Map<string, StoredSecret>();
  const add = (secret: StoredSecret) => held.set(secretReference(secret), secret);
  for (const entry of [...profile.platforms, ...profile.plugins]) Object.values(entry.secrets).forEach(add);
  if (profile.model.apiKey) add(profile.model.apiKey);
  return held;
}

/**
 * The profile of a version with its secrets taken back from the agent as it
 * is now, by reference. `missing` collects those it no longer holds, each
 * as where it was ("plugins[0] (http) secrets.token").
 */
export function profileOf(
  configuration: AgentConfiguration,
  held: Map<string, StoredSecret>,
  missing: string[],
): AgentProfile {
  const resolve = (secrets: Record<string, VersionSecret>, where: string) => {
    const resolved: Record<string, StoredSecret> = {};
    for (const [name, secret] of Object.entries(secrets)) {
      const found = held.get(secret.ref);
      if (found === undefined) missing.push(`${where} secrets.${name}`);
      else resolved[name] = found;
    }
    return resolved;
  };
  const { profile } = configuration;
  const { apiKey, ...model } = profile.model;
  const heldKey = apiKey === undefined ? undefined : held.get(apiKey.ref);
  if (apiKey !== undefined && heldKey === undefined) missing.push('model.apiKey');
  return {
    ...profile,
    platforms: profile.platforms.map((platform, index) => ({
      ...platform,
      secrets: resolve(platform.secrets, `platforms[${index}] (${platform.type})`),
    })),
    plugins: profile.plugins.map((plugin, index) => ({
      ...plugin,
      secrets: resolve(plugin.secrets, `plugins[${index}] (${plugin.name})`),
    })),
    model: heldKey === undefined ? model : { ...model, apiKey: heldKey },
  };
}

/**
 * Makes version `version` the agent's configuration again, as a new version
 * (source `restore`). Its secrets come back only from those the agent still
 * holds: one removed or replaced since is not in history, and the restore is
 * refused (409 `conflict`, naming each) with nothing changed. So is one whose
 * model or knowledge bases this server or account no longer has. The status
 * is not configuration and stays as it is. Restoring a version equal to the
 * present configuration changes nothing and records no version.
 */
export async function restoreAgentVersion({
  ctx,
  agentId,
  version,
}: {
  ctx: ServiceContext;
  agentId: string;
  version: number;
}): Promise<Agent> {
  requireScope(ctx, 'agents:write');
  const { repositories } = ctx.deps;
  const { current, next } = await repositories.db.transaction().execute(async (transaction) => {
    const current = await findOwnAgent(ctx, agentId, transaction, true);
    const target = await repositories.agentVersions.find(ctx.actor.accountId, agentId, version, transaction);
    if (target === null) throw notFound('Version');
    const missing: string[] = [];
    const profile = profileOf(target.configuration, heldSecrets(current.profile), missing);
    if (missing.length > 0) {
      throw new AppError(
        'conflict',
        `Version ${version} cannot be restored: it needs secrets the agent no longer holds (${missing.join(', ')}). ` +
          'A secret is never kept in history; give it again with PATCH, then restore, or PATCH the agent as wanted.',
      );
    }
    try {
      checkProfile(ctx.deps, profile);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw new AppError('conflict', `Version ${version} cannot be restored on this server: ${error.detail}`);
    }
    const knowledgeBases = profile.knowledgeBases ?? [];
    if (knowledgeBases.length > 0) {
      const found = await repositories.knowledgeBases.existing(ctx.actor.accountId, knowledgeBases, transaction);
      const gone = knowledgeBases.filter((id) => !found.has(id));
      if (gone.length > 0) {
        throw new AppError(
          'conflict',
          `Version ${version} cannot be restored: its knowledge bases ${gone.join(', ')} no longer exist.`,
        );
      }
    }
    const now = isoTime(ctx.deps.clock.now());
    const restored: AgentRecord = {
      ...current,
      name: target.configuration.name,
      deletionProtection: target.configuration.deletionProtection,
      profile,
      version: current.version + 1,
      updatedAt: now > current.updatedAt ? now : current.updatedAt,
    };
    if (!configurationChanged(current, restored)) return { current, next: current };
    if (!(await repositories.agents.update(current, restored, transaction))) {
      throw new AppError('internal', 'The agent changed while it was locked for this restore.');
    }
    if (JSON.stringify(current.profile.knowledge) !== JSON.stringify(restored.profile.knowledge)) {
      await repositories.knowledge.replace(current.id, restored.profile.knowledge, transaction);
    }
    if (JSON.stringify(current.profile.knowledgeBases ?? []) !== JSON.stringify(knowledgeBases)) {
      await repositories.knowledgeBases.attach(current.accountId, current.id, knowledgeBases, transaction);
    }
    const changes = agentChanges(current, restored);
    await recordAgentEvent(eventWriterOf(ctx), restored, 'agent.updated', { ...changes }, transaction);
    await recordAgentVersion(
      ctx,
      { agent: restored, previous: current, source: 'restore', restoredFrom: version },
      transaction,
    );
    return { current, next: restored };
  });
  if (next !== current) {
    ctx.deps.webhooks.outbox.committed();
    // The agent's plugin connections belong to its previous version.
    await ctx.deps.plugins.toolsets.forget(agentId);
    ctx.deps.logger.info(
      { agentId, version: next.version, restoredFrom: version, requestId: ctx.requestId },
      'agent version restored',
    );
  }
  return toAgentView(next);
}

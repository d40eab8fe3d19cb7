import { AppError, validationError } from '../../errors.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { memorySettingsOf } from '../../schemas/memory-settings.js';
import type { ServiceContext } from '../context.js';
import { checkProfile } from '../agents/agent-profile.js';
import { heldSecrets, profileOf } from '../agent-versions/restore-version.js';

/**
 * The agent as one of its versions configures it, for an eval's replies: the
 * version's configuration with its secrets taken back from the agent as it is
 * now, by reference (as a restore takes them), memory off (an eval's
 * conversation is its own and nothing of it is remembered) and the agent's
 * present inline knowledge (its search index is the present one's). Refused
 * with 409 `conflict` when the version needs a secret the agent no longer
 * holds or a model provider this server does not enable.
 */
export async function versionAgent(
  ctx: ServiceContext,
  current: AgentRecord,
  version: number,
  at: string,
): Promise<AgentRecord> {
  const stored = await ctx.deps.repositories.agentVersions.find(ctx.actor.accountId, current.id, version);
  if (stored === null) throw validationError('/body/versions', `the agent has no version ${version}`, 'invalid');
  const missing: string[] = [];
  const profile = profileOf(stored.configuration, heldSecrets(current.profile), missing);
  if (missing.length > 0) {
    throw new AppError(
      'conflict',
      `Version ${version} cannot be evaluated: it needs secrets the agent no longer holds (${missing.join(', ')}).`,
    );
  }
  try {
    checkProfile(ctx.deps, profile);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw new AppError('conflict', `Version ${version} cannot be evaluated on this server: ${error.detail}`);
  }
  const memory = memorySettingsOf(profile);
  return {
    ...current,
    name: stored.configuration.name,
    status: 'active',
    statusReason: null,
    profile: {
      ...profile,
      knowledge: current.profile.knowledge,
      memory: { ...memory, summary: false, facts: false, recall: false },
    },
    version,
    updatedAt: at,
  };
}

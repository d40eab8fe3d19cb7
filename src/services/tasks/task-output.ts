import type { TaskOutputValue } from '../../schemas/tasks.js';
import type { ServiceDeps } from '../context.js';
import type { PlatformRuntime } from '../platforms/platform-runtime.js';

/**
 * Posts a task's reply to its platform target with the agent's connector of
 * that platform, as the agent is stored now: the platform must still be
 * there and enabled, and the agent active. Rejects with a reason its owner
 * can act on (never a secret).
 */
export async function postToPlatform(
  deps: ServiceDeps,
  platforms: PlatformRuntime,
  run: { accountId: string; agentId: string },
  output: Extract<TaskOutputValue, { type: 'platform' }>,
  text: string,
  signal: AbortSignal,
): Promise<void> {
  const agent = await deps.repositories.agents.find(run.accountId, run.agentId);
  if (agent === null) throw new Error('the agent no longer exists');
  if (agent.status !== 'active') throw new Error(`the agent is ${agent.status}`);
  const entry = agent.profile.platforms.find((platform) => platform.type === output.platform);
  if (entry === undefined || !entry.enabled) {
    throw new Error(`the agent has no enabled ${output.platform} platform to post with`);
  }
  const definition = deps.platforms.catalog.definitionOf(output.platform);
  if (definition?.postText === undefined) throw new Error(`the ${output.platform} connector cannot post on its own`);
  const secrets: Record<string, string> = {};
  for (const [name, secret] of Object.entries(entry.secrets))
    secrets[name] = deps.secretBox.open(secret.sealed, agent.id);
  const settings = deps.platforms.catalog.settingsWithDefaults(output.platform, entry.settings);
  await definition.postText(
    output.target,
    text,
    settings,
    secrets,
    platforms.contextFor(agent, output.platform, signal),
  );
}

import type { Agent } from '../../schemas/agents.js';
import type { ExportedCharacterValue } from '../../schemas/character.js';
import { requireScope, type ServiceContext } from '../context.js';
import {
  apiKeyVariableOf,
  clientOfPlatform,
  connectorPluginOfPlatform,
  elizaPluginOf,
  providerPluginOf,
  variableOfPlatformSecret,
} from './character-names.js';
import { findOwnAgent } from './get-agent.js';
import { toAgentView } from './agent-profile.js';

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * What the character format has no field for, under `settings.agentd`, so
 * that importing the export gives the same agent. Secrets are write-only and
 * stay out of it: they are named, empty, in `settings.secrets`.
 */
function extensionOf(agent: Agent): Record<string, unknown> {
  const extension: Record<string, unknown> = {};
  if (agent.status !== 'error') extension.status = agent.status;
  if (agent.personality.tone !== null) extension.personality = { tone: agent.personality.tone };
  if (agent.goals.objectives.length > 0 || agent.goals.motivations.length > 0) extension.goals = agent.goals;
  // Knowledge with titles has no place in a character's list of texts.
  if (agent.knowledge.some((item) => typeof item !== 'string')) extension.knowledge = agent.knowledge;
  if (agent.platforms.length > 0) {
    extension.platforms = agent.platforms.map(({ type, enabled, settings }) => ({ type, enabled, settings }));
  }
  if (agent.plugins.length > 0) {
    extension.plugins = agent.plugins.map(({ name, enabled, config }) => ({ name, enabled, config }));
  }
  const { apiKey: _apiKey, ...model } = agent.model;
  extension.model = model;
  if (agent.deletionProtection) extension.deletionProtection = true;
  if (Object.keys(agent.metadata).length > 0) extension.metadata = agent.metadata;
  return extension;
}

function secretNamesOf(agent: Agent): Record<string, ''> {
  const names: Record<string, ''> = {};
  for (const platform of agent.platforms) {
    for (const secret of Object.keys(platform.secrets)) {
      const variable = variableOfPlatformSecret(platform.type, secret);
      if (variable !== undefined) names[variable] = '';
    }
  }
  const apiKeyVariable = apiKeyVariableOf(agent.model.provider);
  if (agent.model.apiKey !== undefined && apiKeyVariable !== undefined) names[apiKeyVariable] = '';
  return names;
}

/** An agent as an ElizaOS character file (1.x shape, with `clients` for 0.x readers). */
export function agentToCharacter(agent: Agent): ExportedCharacterValue {
  const enabledPlatforms = agent.platforms.filter((platform) => platform.enabled);
  const providerPlugin = providerPluginOf(agent.model.provider);
  const plugins = unique([
    ...(providerPlugin !== undefined ? [providerPlugin] : []),
    ...enabledPlatforms.flatMap((platform) => connectorPluginOfPlatform(platform.type) ?? []),
    ...agent.plugins.filter((plugin) => plugin.enabled).map((plugin) => elizaPluginOf(plugin.name)),
  ]);
  return {
    name: agent.name,
    bio: agent.bio,
    ...(agent.system !== null ? { system: agent.system } : {}),
    adjectives: agent.personality.traits,
    topics: agent.expertise,
    style: { all: agent.personality.style },
    knowledge: agent.knowledge.filter((item): item is string => typeof item === 'string'),
    plugins,
    clients: unique(enabledPlatforms.flatMap((platform) => clientOfPlatform(platform.type) ?? [])),
    settings: { secrets: secretNamesOf(agent), agentd: extensionOf(agent) },
  };
}

export async function exportAgent({
  ctx,
  agentId,
}: {
  ctx: ServiceContext;
  agentId: string;
}): Promise<ExportedCharacterValue> {
  requireScope(ctx, 'agents:read');
  return agentToCharacter(toAgentView(await findOwnAgent(ctx, agentId)));
}

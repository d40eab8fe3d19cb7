import type { Agent } from '../../schemas/agents.js';
import type { Character, ImportReportValue } from '../../schemas/character.js';
import { requireScope, type ServiceContext, type ServiceDeps } from '../context.js';
import { characterToAgent, type ImportEnvironment } from './character-import.js';
import { createAgent } from './create-agent.js';

export function importEnvironmentOf(deps: ServiceDeps): ImportEnvironment {
  const catalog = deps.plugins.catalog;
  return {
    offeredPlugins: catalog.names,
    pluginWorksWithoutConfig: (name) => catalog.check(name, {}, {}).length === 0,
    providerEnabled: (provider) => deps.providers.isEnabled(provider),
    defaultModel: deps.providers.defaultModel,
    allowAgentModelKeys: deps.allowAgentModelKeys,
    platformTakesSecret: (type, secret) => {
      const definition = deps.platforms.catalog.definitionOf(type);
      if (definition === undefined) return true;
      const properties = (definition.secretsSchema as { properties?: Record<string, unknown> }).properties;
      return properties === undefined || Object.hasOwn(properties, secret);
    },
  };
}

export interface ImportedAgent {
  agent: Agent;
  report: ImportReportValue;
  replayed: boolean;
}

/**
 * Creates an agent from an ElizaOS character file. The mapped body goes
 * through createAgent, so every rule of a create applies, and so does its
 * Idempotency-Key: keys are shared with POST /v1/agents. The mapping is a
 * pure function of the character and the server, so a replay reports the same.
 */
export async function importAgent({
  ctx,
  character,
  idempotencyKey,
}: {
  ctx: ServiceContext;
  character: Character;
  idempotencyKey?: string;
}): Promise<ImportedAgent> {
  requireScope(ctx, 'agents:write');
  const { input, report } = characterToAgent(character, importEnvironmentOf(ctx.deps));
  const { agent, replayed } = await createAgent({
    ctx,
    input,
    source: 'import',
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
  });
  return { agent, report, replayed };
}

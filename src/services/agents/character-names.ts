/**
 * How ElizaOS names things agentd also has: connector plugins and 0.x clients
 * (platforms), model provider plugins and 0.x `modelProvider` values, and the
 * environment-style secret names of each connector. Import and export read
 * the same tables, so what one writes the other reads back.
 */

const elizaPluginPrefix = '@elizaos/plugin-';

/** agentd platform type → the ElizaOS client / connector name (plugin `@elizaos/plugin-<name>`). */
const platformClients: Record<string, string> = {
  discord: 'discord',
  telegram: 'telegram',
  slack: 'slack',
  x: 'twitter',
  farcaster: 'farcaster',
};
const clientPlatforms = Object.fromEntries(Object.entries(platformClients).map(([type, client]) => [client, type]));

/** Secret name prefix of each platform's variables, e.g. `TELEGRAM_BOT_TOKEN`. */
const platformSecretPrefixes: Record<string, string> = {
  discord: 'DISCORD_',
  telegram: 'TELEGRAM_',
  slack: 'SLACK_',
  x: 'TWITTER_',
  farcaster: 'FARCASTER_',
};

/** Variables whose agentd name is not the camel-cased rest of the variable name. */
const renamedSecrets: Record<string, { platform: string; secret: string }> = {
  DISCORD_API_TOKEN: { platform: 'discord', secret: 'botToken' },
  // ElizaOS's X client names the OAuth 1.0a keys after the developer portal's labels.
  TWITTER_API_KEY: { platform: 'x', secret: 'appKey' },
  TWITTER_API_SECRET_KEY: { platform: 'x', secret: 'appSecret' },
  TWITTER_ACCESS_TOKEN_SECRET: { platform: 'x', secret: 'accessSecret' },
};

/** agentd provider → the ElizaOS plugin that talks to it, and its API key variable. */
const providerPlugins: Record<string, { plugin: string; apiKey: string | null; modelSetting: string }> = {
  openai: { plugin: '@elizaos/plugin-openai', apiKey: 'OPENAI_API_KEY', modelSetting: 'OPENAI_LARGE_MODEL' },
  anthropic: {
    plugin: '@elizaos/plugin-anthropic',
    apiKey: 'ANTHROPIC_API_KEY',
    modelSetting: 'ANTHROPIC_LARGE_MODEL',
  },
  ollama: { plugin: '@elizaos/plugin-ollama', apiKey: null, modelSetting: 'OLLAMA_LARGE_MODEL' },
};

/** agentd plugins that ElizaOS has under its own name; the others are exported by their agentd name. */
const pluginCounterparts: Record<string, string> = {
  knowledge: '@elizaos/plugin-knowledge',
  mcp: '@elizaos/plugin-mcp',
};

/** ElizaOS plugins whose work agentd does itself, so leaving them out loses nothing. */
export const builtInElizaPlugins: Record<string, string> = {
  '@elizaos/plugin-bootstrap': "ElizaOS's message handling; agentd's conversation loop does this itself",
  '@elizaos/plugin-sql': "ElizaOS's storage; agentd stores agents itself",
};

export function pluginShortName(name: string): string {
  return name.startsWith(elizaPluginPrefix) ? name.slice(elizaPluginPrefix.length) : name;
}

/** The platform type a client name or connector plugin stands for, if agentd knows it. */
export function platformOfClient(name: string): string | undefined {
  return clientPlatforms[pluginShortName(name).toLowerCase()];
}

export function clientOfPlatform(type: string): string | undefined {
  return platformClients[type];
}

export function connectorPluginOfPlatform(type: string): string | undefined {
  const client = platformClients[type];
  return client === undefined ? undefined : `${elizaPluginPrefix}${client}`;
}

/** The agentd provider named by a 0.x `modelProvider` value or a 1.x provider plugin. */
export function providerOf(name: string): string | undefined {
  const short = pluginShortName(name).toLowerCase();
  return Object.hasOwn(providerPlugins, short) ? short : undefined;
}

export function providerPluginOf(provider: string): string | undefined {
  return providerPlugins[provider]?.plugin;
}

export function apiKeyVariableOf(provider: string): string | undefined {
  return providerPlugins[provider]?.apiKey ?? undefined;
}

export function modelSettingOf(provider: string): string | undefined {
  return providerPlugins[provider]?.modelSetting;
}

/** The agentd plugin an ElizaOS plugin name stands for: its counterpart, or an agentd plugin's own name. */
export function agentdPluginOf(name: string, offered: readonly string[]): string | undefined {
  for (const [agentdName, elizaName] of Object.entries(pluginCounterparts)) {
    if (elizaName === name) return agentdName;
  }
  return offered.includes(name) ? name : undefined;
}

export function elizaPluginOf(agentdName: string): string {
  return pluginCounterparts[agentdName] ?? agentdName;
}

function camelCase(snake: string): string {
  return snake.toLowerCase().replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

function upperSnakeCase(camel: string): string {
  return camel
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
}

/** The platform and secret name an ElizaOS variable such as `TELEGRAM_BOT_TOKEN` becomes. */
export function platformSecretOf(variable: string): { platform: string; secret: string } | undefined {
  const renamed = renamedSecrets[variable];
  if (renamed) return renamed;
  for (const [platform, prefix] of Object.entries(platformSecretPrefixes)) {
    if (variable.startsWith(prefix) && variable.length > prefix.length && /^[A-Z0-9_]+$/.test(variable)) {
      const secret = camelCase(variable.slice(prefix.length));
      // agentd secret names start with a letter (TELEGRAM_2FA has no such name).
      return /^[a-z]/.test(secret) ? { platform, secret } : undefined;
    }
  }
  return undefined;
}

/** The ElizaOS variable a platform secret is exported as, or undefined for platforms ElizaOS does not know. */
export function variableOfPlatformSecret(platform: string, secret: string): string | undefined {
  for (const [variable, target] of Object.entries(renamedSecrets)) {
    if (target.platform === platform && target.secret === secret) return variable;
  }
  const prefix = platformSecretPrefixes[platform];
  return prefix === undefined ? undefined : `${prefix}${upperSnakeCase(secret)}`;
}

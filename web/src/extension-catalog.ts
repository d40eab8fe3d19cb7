import { request } from './api.js';
import type { JsonSchema } from './ui/schema-form/index.js';

/** A plugin or platform connector the server offers, with the schemas its entries are checked against. */
export interface ExtensionKind {
  /** The plugin's name or the platform's type. */
  name: string;
  description: string;
  /** `configSchema` of a plugin, `settingsSchema` of a platform. */
  settingsSchema: JsonSchema;
  secretsSchema: JsonSchema;
}

export interface ExtensionCatalog {
  plugins: ExtensionKind[];
  platforms: ExtensionKind[];
}

interface PluginList {
  data: Array<{ name: string; description: string; configSchema: JsonSchema; secretsSchema: JsonSchema }>;
}
interface PlatformList {
  data: Array<{ type: string; description: string; settingsSchema: JsonSchema; secretsSchema: JsonSchema }>;
}

/** GET /v1/plugins and GET /v1/platforms, read once per form. */
export async function loadCatalog(signal: AbortSignal): Promise<ExtensionCatalog> {
  const [plugins, platforms] = await Promise.all([
    request<PluginList>('GET', '/v1/plugins', { signal }),
    request<PlatformList>('GET', '/v1/platforms', { signal }),
  ]);
  return {
    plugins: plugins.data.map((plugin) => ({ ...plugin, settingsSchema: plugin.configSchema })),
    platforms: platforms.data.map((platform) => ({ ...platform, name: platform.type })),
  };
}

/** An entry of a kind the server does not offer keeps its settings as JSON and its secrets by name. */
const unknownKind = (name: string): ExtensionKind => ({
  name,
  description: '',
  settingsSchema: {},
  secretsSchema: { type: 'object', patternProperties: { '^(.*)$': { type: 'string' } } },
});

export function kindIn(kinds: ExtensionKind[], name: string): ExtensionKind {
  return kinds.find((kind) => kind.name === name) ?? unknownKind(name);
}

import { Type, type Static } from '@sinclair/typebox';

/** A plugin the server offers (GET /v1/plugins): what an agent's `plugins[]` entry may name and configure. */
export const PluginDescriptionSchema = Type.Object({
  name: Type.String({ description: 'What `plugins[].name` says to use this plugin.' }),
  description: Type.String(),
  configSchema: Type.Unknown({ description: 'JSON Schema of `plugins[].config` (defaults shown).' }),
  secretsSchema: Type.Unknown({ description: 'JSON Schema of `plugins[].secrets` (write-only strings).' }),
});

export const PluginList = Type.Object({ data: Type.Array(PluginDescriptionSchema) });
export type PluginListValue = Static<typeof PluginList>;

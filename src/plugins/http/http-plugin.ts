import type { PluginDefinition } from '../plugin.js';
import { httpPluginConfigSchema, httpPluginSecretsSchema } from './config.js';
import { fetchUrlTool } from './fetch-url-tool.js';

/**
 * Lets an agent read web pages and call HTTP APIs. Every call goes through the
 * core's SSRF-safe client (`context.fetch`), so the model cannot reach
 * addresses inside the network agentd runs in.
 */
export const httpPlugin: PluginDefinition<typeof httpPluginConfigSchema, typeof httpPluginSecretsSchema> = {
  name: 'http',
  description: 'Fetch web pages and HTTP APIs (GET and POST) as readable text.',
  configSchema: httpPluginConfigSchema,
  secretsSchema: httpPluginSecretsSchema,
  async open(config, _secrets, context) {
    return { tools: [fetchUrlTool(config, context.fetch)] };
  },
};

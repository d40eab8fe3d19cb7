import type { PluginDefinition, PluginEntryProblem } from '../plugin.js';
import { SecretMask } from '../redact-secrets.js';
import { describeSecretOrigin, isOfSecretOrigin, secretOriginOf } from './allowed-hosts.js';
import { httpPluginConfigSchema, httpPluginSecretsSchema, type HttpPluginConfig } from './config.js';
import { fetchUrlTool } from './fetch-url-tool.js';

/** JSON Pointer escaping (RFC 6901) of one reference token. */
const pointerToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The secret headers of each origin a key names, with their values. A URL
 * matched by several keys gets the headers of each, an exact host's last (so
 * they win over a wildcard's).
 */
function secretHeadersByOrigin(config: HttpPluginConfig, secrets: Record<string, string>) {
  const entries = Object.entries(config.secretHeaders ?? {}).map(([key, headers]) => {
    const values: Record<string, string> = {};
    for (const [header, secretName] of Object.entries(headers)) {
      const value = secrets[secretName];
      if (value !== undefined) values[header] = value;
    }
    return { origin: secretOriginOf(key), values };
  });
  const exact = (entry: (typeof entries)[number]) => Number(!entry.origin.host.startsWith('*.'));
  entries.sort((a, b) => exact(a) - exact(b));
  return entries;
}

/**
 * Lets an agent read web pages and call HTTP APIs. Every call goes through the
 * core's SSRF-safe client (`context.fetch`), so the model cannot reach
 * addresses inside the network agentd runs in. Credentials for an API are
 * secrets of the entry that agentd adds by origin (`secretHeaders`); the model
 * never sees them, and the core masks them in what comes back.
 */
export const httpPlugin: PluginDefinition<typeof httpPluginConfigSchema, typeof httpPluginSecretsSchema> = {
  name: 'http',
  description:
    'Fetch web pages and HTTP APIs (GET and POST) as readable text, with secret headers added per origin that the model never sees.',
  configSchema: httpPluginConfigSchema,
  secretsSchema: httpPluginSecretsSchema,
  // Which origin gets which secret, whatever form its keys take.
  secretDestination: (config) => ({ secretHeaders: config.secretHeaders ?? {} }),
  async open(config, secrets, context) {
    const byOrigin = secretHeadersByOrigin(config, secrets);
    // The core masks the secrets in what the tool gives back; this is for the cut at maxResponseBytes, before which
    // the core never sees a secret whole.
    const secretMask = new SecretMask(Object.values(secrets));
    if (byOrigin.length === 0) return { tools: [fetchUrlTool(config, context.fetch, undefined, secretMask)] };
    const credentialsFor = (url: URL) => {
      let headers: Record<string, string> | null = null;
      for (const { origin, values } of byOrigin) {
        if (isOfSecretOrigin(url, origin)) headers = { ...(headers ?? {}), ...values };
      }
      return headers;
    };
    const tool = fetchUrlTool(config, context.fetch, credentialsFor, secretMask);
    // Told as origins, so the model asks for https://… where that is what carries the credentials.
    const hosts = byOrigin.map(({ origin }) => describeSecretOrigin(origin)).join(', ');
    return {
      tools: [
        {
          ...tool,
          description: `${tool.description} Requests to ${hosts} carry their credentials already: do not add any.`,
        },
      ],
    };
  },
  async check(config, secretNames) {
    const problems: PluginEntryProblem[] = [];
    const known = new Set(secretNames);
    for (const [host, headers] of Object.entries(config.secretHeaders ?? {})) {
      for (const [header, secretName] of Object.entries(headers)) {
        if (known.has(secretName)) continue;
        problems.push({
          path: `/config/secretHeaders/${pointerToken(host)}/${pointerToken(header)}`,
          message: `names the secret ${secretName}, which this entry's secrets do not have`,
        });
      }
    }
    return problems;
  },
};

import { Type, type Static } from '@sinclair/typebox';

export const httpPluginConfigSchema = Type.Object(
  {
    allowedHosts: Type.Optional(
      Type.Array(
        Type.String({
          pattern: '^(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.?$',
          maxLength: 253,
          description: 'An exact host name ("api.example.com") or every subdomain of one ("*.example.com").',
        }),
        {
          maxItems: 100,
          description:
            'When set, only these hosts may be fetched, and every redirect must stay among them. Unset: any public host.',
        },
      ),
    ),
    timeoutMs: Type.Integer({
      minimum: 1000,
      maximum: 30_000,
      default: 10_000,
      description: 'How long one fetch may take, redirects and reading the body included.',
    }),
    maxResponseBytes: Type.Integer({
      minimum: 1024,
      maximum: 5 * 1_048_576,
      default: 1_048_576,
      description: 'Bytes of a response body read at most; the rest is left unread and the result marked truncated.',
    }),
  },
  { additionalProperties: false },
);
export type HttpPluginConfig = Static<typeof httpPluginConfigSchema>;

/** The plugin reads no secrets: headers the model needs are given per call. */
export const httpPluginSecretsSchema = Type.Object({}, { additionalProperties: false });

import { Type, type Static } from '@sinclair/typebox';

const hostPattern = '^(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.?$';
/** RFC 9110 `token`, the characters a header name may have. */
const headerNamePattern = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$";
const secretNamePattern = '^[A-Za-z][A-Za-z0-9_.-]{0,99}$';

export const httpPluginConfigSchema = Type.Object(
  {
    secretHeaders: Type.Optional(
      Type.Record(
        Type.String({ pattern: hostPattern, maxLength: 253 }),
        Type.Record(Type.String({ pattern: headerNamePattern }), Type.String({ pattern: secretNamePattern }), {
          maxProperties: 20,
          additionalProperties: false,
        }),
        {
          maxProperties: 50,
          additionalProperties: false,
          description:
            "Headers agentd adds to requests to a host, with their values taken from the entry's secrets: " +
            '`{ "api.example.com": { "Authorization": "exampleToken" } }` sends the secret `exampleToken` as the ' +
            'Authorization header of every request to api.example.com (a key may also be "*.example.com"). They ' +
            'are never shown to the model, are dropped when a redirect leads to another host, and are masked in ' +
            'whatever a server sends back.',
        },
      ),
    ),
    allowedHosts: Type.Optional(
      Type.Array(
        Type.String({
          pattern: hostPattern,
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

/** The values of `secretHeaders`, by the names it gives them; write-only like every secret. */
export const httpPluginSecretsSchema = Type.Record(Type.String(), Type.String(), {
  description: 'Values of the headers `config.secretHeaders` names, e.g. `{ "exampleToken": "Bearer …" }`.',
});

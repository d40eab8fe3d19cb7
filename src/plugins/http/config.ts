import { Type, type Static } from '@sinclair/typebox';

const hostPattern = '^(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.?$';
const hostBody = hostPattern.slice(1, -1);
/** 1 to 65535, written without leading zeros, so a port is compared as the URL parser writes it. */
const portNumber = '(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})';
/** A host pattern (https on port 443), or an origin written out: `http(s)://` a host pattern, and a port if any. */
const secretOriginPattern = `^(${hostBody}|https?://${hostBody}(:${portNumber})?)$`;
/** RFC 9110 `token`, the characters a header name may have. */
const headerNamePattern = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$";
const secretNamePattern = '^[A-Za-z][A-Za-z0-9_.-]{0,99}$';

export const httpPluginConfigSchema = Type.Object(
  {
    secretHeaders: Type.Optional(
      Type.Record(
        Type.String({ pattern: secretOriginPattern, maxLength: 270 }),
        Type.Record(Type.String({ pattern: headerNamePattern }), Type.String({ pattern: secretNamePattern }), {
          maxProperties: 20,
          additionalProperties: false,
        }),
        {
          maxProperties: 50,
          additionalProperties: false,
          description:
            "Headers agentd adds to requests to an origin, with their values taken from the entry's secrets: " +
            '`{ "api.example.com": { "Authorization": "exampleToken" } }` sends the secret `exampleToken` as the ' +
            'Authorization header of every request to https://api.example.com (port 443). A bare host (or ' +
            '"*.example.com" for its subdomains) means https on port 443 only; plain http or another port is ' +
            'written out as an origin, e.g. "http://127.0.0.1:8080" or "https://api.example.com:8443". The ' +
            'headers are never shown to the model, are not sent to another scheme, port or host, nor when a ' +
            'redirect leads there, and are masked in whatever a server sends back.',
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
      description:
        'Bytes of a response body given to the model at most; the rest is left unread (but for a margin as long ' +
        'as the longest secret, read so that a secret across the cut is masked whole) and the result marked ' +
        'truncated.',
    }),
  },
  { additionalProperties: false },
);
export type HttpPluginConfig = Static<typeof httpPluginConfigSchema>;

/** The values of `secretHeaders`, by the names it gives them; write-only like every secret. */
export const httpPluginSecretsSchema = Type.Record(Type.String(), Type.String(), {
  description: 'Values of the headers `config.secretHeaders` names, e.g. `{ "exampleToken": "Bearer …" }`.',
});

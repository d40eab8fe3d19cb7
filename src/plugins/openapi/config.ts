import { Type, type Static } from '@sinclair/typebox';

/** Bytes of an OpenAPI document read at most, inline or fetched. */
export const maxDocumentBytes = 1_048_576;
/** Tools one entry gives at most: model providers take about this many tools in one request. */
export const maxOperations = 128;

const httpUrl = (description: string) =>
  Type.String({ pattern: '^https?://[^\\s/?#]+[^\\s]*$', maxLength: 2048, description });

/**
 * What an agent's `openapi` plugin entry holds. Exactly one of `document` and
 * `url` is given; the plugin's check says so at `/config` when not, and reads
 * the document (fetching it through the SSRF-safe client) on create and PATCH.
 */
export const openApiConfigSchema = Type.Object(
  {
    document: Type.Optional(
      Type.Union(
        [Type.String({ minLength: 1, maxLength: maxDocumentBytes }), Type.Object({}, { additionalProperties: true })],
        { description: 'The OpenAPI 3.0 or 3.1 document itself: a JSON object, or its text in JSON or YAML.' },
      ),
    ),
    url: Type.Optional(
      httpUrl(
        'Where to fetch the OpenAPI 3.0 or 3.1 document (JSON or YAML, at most 1 MiB), instead of `document`. ' +
          'Fetched when the entry is saved and each time the agent’s tools are opened.',
      ),
    ),
    operations: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: maxOperations,
        uniqueItems: true,
        description:
          'The operationIds the model may call; when absent, every operation of the document. Others are neither shown nor callable.',
      }),
    ),
    baseUrl: Type.Optional(
      httpUrl('Where the API is, overriding the document’s first `servers` entry (e.g. https://api.example.com/v2).'),
    ),
    prefix: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z][A-Za-z0-9_]{0,19}$',
        description:
          'Put before each tool name as `<prefix>_<operationId>`; needed when one agent has two openapi entries.',
      }),
    ),
    timeoutMs: Type.Integer({
      minimum: 1000,
      maximum: 30_000,
      default: 10_000,
      description: 'How long one call may take, redirects and reading the body included.',
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
export type OpenApiConfig = Static<typeof openApiConfigSchema>;

/**
 * The credentials of the document's security schemes, by scheme name: an API
 * key (header, query or cookie), a bearer token (also for oauth2 and
 * openIdConnect schemes: an access token), `user:password` for basic.
 */
export const openApiSecretsSchema = Type.Record(Type.String(), Type.String(), {
  description:
    'Credentials by the name of the document’s security scheme: the key of an apiKey scheme, the token of an ' +
    'http bearer (or oauth2/openIdConnect) scheme, `user:password` for http basic.',
});

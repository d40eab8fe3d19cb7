import { Type } from '@sinclair/typebox';

export const defaultTimeoutMs = 60_000;

/** An origin only: scheme, host name or IPv4 address, and a port from 1 to 65535 if not the default. */
const originPattern =
  '^https?://[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.?' +
  '(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?$';

/**
 * What an agent's `a2a` plugin entry holds: the remote agent's card, read
 * once per agent version through the SSRF-safe client, as is every call.
 */
export const a2aConfigSchema = Type.Object(
  {
    cardUrl: Type.String({
      pattern: '^https?://[^\\s/?#]+[^\\s]*$',
      maxLength: 2048,
      description:
        'The remote agent’s card, an http or https address (e.g. https://agents.example.com/.well-known/agent-card.json).',
    }),
    secretOrigins: Type.Optional(
      Type.Array(Type.String({ pattern: originPattern, maxLength: 270 }), {
        maxItems: 20,
        uniqueItems: true,
        description:
          'Other origins that may receive the entry’s `secrets`, e.g. `["https://rpc.agents.example.com"]`. The ' +
          'headers go to the origin of `cardUrl` (scheme, host and port) and to these only: when the card names ' +
          'its endpoint at another origin, that endpoint is called without them unless it is listed here.',
      }),
    ),
    toolName: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z][A-Za-z0-9_-]{0,63}$',
        description: 'The tool’s name as the model sees it; default `a2a_<the card’s name>`.',
      }),
    ),
    timeoutMs: Type.Optional(
      Type.Integer({
        minimum: 100,
        maximum: 300_000,
        default: defaultTimeoutMs,
        description: 'How long one call of the remote agent may take, its whole answer included, in milliseconds.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** HTTP headers sent with every request to the remote agent's origin (its card too), e.g. `Authorization`. */
export const a2aSecretsSchema = Type.Record(Type.String(), Type.String(), {
  description:
    'HTTP headers sent with every request to the remote agent, e.g. `{ "Authorization": "Bearer …" }`: to the ' +
    'origin of `cardUrl` and to `secretOrigins`, never to another origin a card or a redirect names.',
});

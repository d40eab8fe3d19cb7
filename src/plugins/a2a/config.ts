import { Type } from '@sinclair/typebox';

export const defaultTimeoutMs = 60_000;

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

/** HTTP headers sent with every request to the remote agent (its card too), e.g. `Authorization`. */
export const a2aSecretsSchema = Type.Record(Type.String(), Type.String(), {
  description: 'HTTP headers sent with every request to the remote agent, e.g. `{ "Authorization": "Bearer …" }`.',
});

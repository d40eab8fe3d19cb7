import { Type, type Static } from '@sinclair/typebox';

export const imagesPluginConfigSchema = Type.Object(
  {
    provider: Type.Union([Type.Literal('openai'), Type.Literal('openai-compatible')], {
      default: 'openai',
      description:
        'Whose image models: `openai` (OPENAI_API_KEY, OPENAI_BASE_URL) or `openai-compatible` ' +
        '(AGENTD_OPENAI_COMPATIBLE_BASE_URL), as the server enables them; or any server speaking the OpenAI Images API ' +
        'at `baseUrl`.',
    }),
    model: Type.String({
      minLength: 1,
      maxLength: 200,
      default: 'gpt-image-1',
      description:
        'The image model, e.g. gpt-image-1, dall-e-3, dall-e-2, or the model name a compatible server serves.',
    }),
    baseUrl: Type.Optional(
      // A pattern, as for the mcp and openapi plugins' addresses, not `format: 'uri'`: plugin configs are checked by
      // TypeBox's compiler, which knows no format unless one is registered, so `uri` refused every value. The
      // plugin's `check` parses it whole.
      Type.String({
        maxLength: 2048,
        pattern: '^https?://[^\\s/?#]+[^\\s]*$',
        description:
          'An OpenAI-compatible server of your own (its API root, e.g. https://images.example.com/v1), called through ' +
          'the SSRF-safe client: public addresses only. It is sent `secrets.apiKey` or no key, never the server’s ' +
          'provider key. Unset: the server’s provider settings.',
      }),
    ),
    sizes: Type.Optional(
      Type.Array(Type.String({ pattern: '^[1-9][0-9]{1,3}x[1-9][0-9]{1,3}$' }), {
        minItems: 1,
        maxItems: 20,
        description:
          'The sizes (`WIDTHxHEIGHT`) the model may be asked for. Unset: those the model is known to take (gpt-image: ' +
          '1024x1024, 1536x1024, 1024x1536; dall-e-3: 1024x1024, 1792x1024, 1024x1792; dall-e-2: 256x256, 512x512, ' +
          '1024x1024), or 1024x1024 for other models.',
      }),
    ),
    maxImages: Type.Integer({
      minimum: 1,
      maximum: 4,
      default: 1,
      description: 'The most images one call may make (dall-e-3 makes one per call whatever this says).',
    }),
  },
  { additionalProperties: false },
);
export type ImagesPluginConfig = Static<typeof imagesPluginConfigSchema>;

export const imagesPluginSecretsSchema = Type.Object(
  {
    apiKey: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'A key of the agent’s own for the image API; unset, the server’s provider key.',
      }),
    ),
  },
  { additionalProperties: false },
);

import { Type } from '@sinclair/typebox';

export const defaultPrefix = 'mcp';
export const defaultTimeoutMs = 15_000;

/**
 * What an agent's `mcp` plugin entry holds. The address is checked by a
 * pattern rather than `format: 'uri'` so the check means the same under Ajv
 * and TypeBox's `Value`, which knows no formats unless they are registered;
 * `open` parses it fully. Fields with a default are optional so a config
 * validated without defaults applied is still complete; `open` fills them in.
 */
export const mcpConfigSchema = Type.Object(
  {
    url: Type.String({
      pattern: '^https?://[^\\s/?#]+[^\\s]*$',
      maxLength: 2048,
      description:
        'The MCP server’s Streamable HTTP endpoint, an http or https address (e.g. https://tools.example.com/mcp).',
    }),
    prefix: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z][A-Za-z0-9_]{0,19}$',
        default: defaultPrefix,
        description:
          'Put before each tool name as `<prefix>_<tool>`, so two servers with a tool of the same name can be attached to one agent.',
      }),
    ),
    tools: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: 100,
        uniqueItems: true,
        description:
          'The server’s tool names the model may use; when absent, every tool of the server. Others are neither shown nor callable.',
      }),
    ),
    timeoutMs: Type.Optional(
      Type.Integer({
        minimum: 100,
        maximum: 300_000,
        default: defaultTimeoutMs,
        description: 'How long one tool call (and connecting) may take before it fails, in milliseconds.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** HTTP headers sent with every request to the server, e.g. `Authorization`; write-only like every secret. */
export const mcpSecretsSchema = Type.Record(Type.String(), Type.String(), {
  description: 'HTTP headers sent with every request to the MCP server, e.g. `{ "Authorization": "Bearer …" }`.',
});

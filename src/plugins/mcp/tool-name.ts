/** The names model providers accept for a tool (OpenAI and Anthropic both). */
const toolNameLimit = 64;

/**
 * The name the model sees for a server's tool: `<prefix>_<name>`, with every
 * character providers refuse replaced by `_` and cut to their length limit.
 * Two server names may map to one exposed name; the caller keeps the first.
 */
export function exposedToolName(prefix: string, serverToolName: string): string {
  return `${prefix}_${serverToolName}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, toolNameLimit);
}

import { ToolError, type Tool } from './plugin.js';

const mask = '••••';
/** Secrets shorter than this are not searched for: they would match ordinary text. */
const shortestSearched = 6;

/** The text with every secret (of six characters or more) masked. */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets.filter((value) => value.length >= shortestSearched))
    if (result.includes(secret)) result = result.replaceAll(secret, mask);
  return result;
}

function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  const text = JSON.stringify(value);
  if (text === undefined || !secrets.some((secret) => text.includes(secret))) return value;
  return JSON.parse(
    redactText(
      text,
      secrets.map((secret) => JSON.stringify(secret).slice(1, -1)),
    ),
  );
}

/**
 * The plugin's tools with its secrets masked in whatever they give back to
 * the model (outputs and error messages): a server that echoes a header, or a
 * page that quotes a token, does not hand a secret to the model.
 */
export function withSecretsRedacted(tools: Tool[], secretValues: readonly string[]): Tool[] {
  const secrets = secretValues.filter((secret) => secret.length >= shortestSearched);
  if (secrets.length === 0) return tools;
  return tools.map((tool) => ({
    ...tool,
    async execute(input, context) {
      try {
        return redactValue(await tool.execute(input, context), secrets);
      } catch (error) {
        if (error instanceof ToolError) throw new ToolError(redactText(error.message, secrets));
        throw error;
      }
    },
  }));
}

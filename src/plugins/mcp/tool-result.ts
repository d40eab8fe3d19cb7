/** The parts of an MCP `tools/call` result the model is given. */
interface ContentPart {
  type: string;
  text?: string;
  mimeType?: string;
  resource?: { uri?: string; text?: string };
  uri?: string;
}

export interface CallResult {
  content?: ContentPart[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** Servers on protocol versions before 2024-11-05 answer with this instead of `content`. */
  toolResult?: unknown;
}

/**
 * Text reaches the model as it is; images and audio cannot go through a text
 * tool result, so the model is told they were left out rather than shown nothing.
 */
function textOf(part: ContentPart): string {
  if (part.type === 'text') return part.text ?? '';
  if (part.type === 'resource' && typeof part.resource?.text === 'string') return part.resource.text;
  if (part.type === 'resource_link') return `[resource: ${part.uri ?? 'unnamed'}]`;
  return `[${part.type} content${part.mimeType ? ` (${part.mimeType})` : ''} left out]`;
}

export function contentText(result: CallResult): string {
  return (result.content ?? []).map(textOf).join('\n');
}

/** The tool's output for the model: the structured result when the server gives one, else its text. */
export function outputOf(result: CallResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (result.content === undefined && result.toolResult !== undefined) return result.toolResult;
  return contentText(result);
}

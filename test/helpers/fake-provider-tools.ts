/**
 * Tool calls in the fake providers, whatever the wire format: what a test
 * scripts the model to call, what an answer carries once ids are given, and
 * what a request offered and sent back (read from its body by each protocol,
 * so tests assert on one shape for OpenAI and Anthropic alike).
 */

/** A tool call a test scripts the model to make. */
export interface ScriptedToolCall {
  name: string;
  /** The input object; sent as its JSON text. Default: {}. */
  input?: unknown;
  /** The input text exactly as the model writes it, instead of `input` (e.g. malformed JSON). */
  inputText?: string;
  /** The call's id; default: a fresh one in the provider's style (call_…, toolu_…). */
  id?: string;
}

/** A tool call as an answer carries it. */
export interface AnsweredToolCall {
  id: string;
  name: string;
  inputText: string;
}

/** A tool a request offered the model, in either wire format. */
export interface OfferedTool {
  name: string;
  description: string | undefined;
  /** The JSON Schema of its input (OpenAI `function.parameters`, Anthropic `input_schema`). */
  parameters: unknown;
}

/** An earlier tool call the request's conversation carries (the assistant's turn). */
export interface RecordedToolCall {
  id: string;
  name: string;
  /** The input as sent: parsed from OpenAI's arguments text, Anthropic's input object as is. */
  input: unknown;
}

/** A tool result the request sends back to the model. */
export interface RecordedToolResult {
  toolCallId: string;
  /** The result's text (OpenAI `content`, Anthropic `content` string or text blocks). */
  content: string;
  /** Anthropic's `is_error`; undefined where the wire format has no such flag (OpenAI) or it was left out. */
  isError: boolean | undefined;
}

let lastToolCallNumber = 0;

export function answeredToolCalls(calls: ScriptedToolCall[], idPrefix: string): AnsweredToolCall[] {
  return calls.map((call) => ({
    id: call.id ?? `${idPrefix}fake${(lastToolCallNumber += 1).toString().padStart(4, '0')}`,
    name: call.name,
    inputText: call.inputText ?? JSON.stringify(call.input ?? {}),
  }));
}

/**
 * The input text in the pieces a stream carries it in: real providers split it
 * wherever their tokens fall, so clients must join pieces that are not JSON on
 * their own; short pieces make sure a test sees that.
 */
export function inputPieces(inputText: string, pieceLength = 6): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < inputText.length; start += pieceLength) {
    pieces.push(inputText.slice(start, start + pieceLength));
  }
  return pieces;
}

/** Text from a string, or from a list of blocks of which the text ones count. */
export function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: string; text?: unknown }) =>
      block.type === 'text' && typeof block.text === 'string' ? block.text : '',
    )
    .join('');
}

/** JSON text parsed, or the text itself when it is not JSON (a model may write anything). */
export function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

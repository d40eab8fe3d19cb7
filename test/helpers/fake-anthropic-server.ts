import {
  carriesText,
  startFakeProviderServer,
  textOf,
  type ChatMessage,
  type FakeProviderServer,
  type ProviderAnswer,
  type FakeProviderServerOptions,
  type ProviderProtocol,
  type RecordedRequest,
  type TokenCounts,
} from './fake-provider-server.js';
import { blockText, inputPieces, parsedOrText, type AnsweredToolCall } from './fake-provider-tools.js';

/**
 * The fake provider speaking the Anthropic Messages API (`POST /v1/messages`),
 * as documented by Anthropic and parsed by @ai-sdk/anthropic: a stream of
 * named events `message_start`, `content_block_start`, `ping`,
 * `content_block_delta` (`text_delta`)…, `content_block_stop`, `message_delta`
 * (stop_reason, output usage), `message_stop`; errors as
 * `{ "type": "error", "error": { "type", "message" } }`, whose `type` follows
 * the HTTP status (529 is `overloaded_error`).
 *
 * Tool calls: `fake.enqueue({ toolCalls: [{ name: 'calculator', input: { expression: '2+2' } }] },
 * { reply: 'It is 4.' })` answers the next request with the call and the one
 * bringing its result back with text (more in fake-provider-server.ts). They
 * come as Anthropic sends them: streamed, after the text block (if any) is stopped,
 * one block per call, `content_block_start` with a `tool_use` block (id, name,
 * empty input), `content_block_delta`s with `input_json_delta` pieces of the
 * input's JSON text, `content_block_stop`, then `message_delta` with
 * `stop_reason: "tool_use"`; whole, `tool_use` blocks in `content`. A
 * request's tools are read from `tools[]` (`input_schema`), its earlier calls
 * from assistant `tool_use` blocks, its results from `tool_result` blocks in
 * user messages (`tool_use_id`, `content`, `is_error`).
 */

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function message(
  request: RecordedRequest,
  fields: { content: unknown[]; stop_reason: string | null; usage: Record<string, number> },
) {
  return {
    id: 'msg_fake01',
    type: 'message',
    role: 'assistant',
    model: request.body.model,
    stop_sequence: null,
    ...fields,
  };
}

/**
 * The input side of Anthropic's usage: `input_tokens` counts only what was
 * not read from the cache, `cache_read_input_tokens` the rest.
 */
function inputUsageOf(usage: TokenCounts): Record<string, number> {
  const cached = usage.cachedInputTokens;
  if (cached === undefined) return { input_tokens: usage.inputTokens };
  return { input_tokens: usage.inputTokens - cached, cache_read_input_tokens: cached, cache_creation_input_tokens: 0 };
}

function event(type: string, fields: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
}

type Block = { type: string; [key: string]: unknown };

function blocksOf(messages: ChatMessage[], role: string, type: string): Block[] {
  return messages
    .filter((message) => message.role === role && Array.isArray(message.content))
    .flatMap((message) => (message.content as Block[]).filter((block) => block.type === type));
}

function toolUseBlock(call: AnsweredToolCall, input: unknown) {
  return { type: 'tool_use', id: call.id, name: call.name, input };
}

function stopReasonOf(answer: ProviderAnswer): string {
  return answer.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

/** The system prompt as sent: a string, or a list of text blocks. */
export function systemTextOf(request: RecordedRequest): string {
  const { system } = request.body;
  return system === undefined ? '' : textOf({ content: system });
}

export const anthropicProtocol: ProviderProtocol = {
  path: /\/v1\/messages$/,
  toolCallIdPrefix: 'toolu_',
  readTools: (body) => {
    const messages: ChatMessage[] = body.messages ?? [];
    const tools = (body.tools as Array<{ name: string; description?: string; input_schema?: unknown }>) ?? [];
    return {
      offeredTools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.input_schema,
      })),
      toolCalls: blocksOf(messages, 'assistant', 'tool_use').map((block) => ({
        id: String(block.id),
        name: String(block.name),
        input: block.input,
      })),
      toolResults: blocksOf(messages, 'user', 'tool_result').map((block) => ({
        toolCallId: String(block.tool_use_id),
        content: blockText(block.content),
        isError: typeof block.is_error === 'boolean' ? block.is_error : undefined,
      })),
    };
  },
  errorBody: (status, message) => ({ type: 'error', error: { type: errorTypes[status] ?? 'api_error', message } }),
  completeAnswer: (request, answer) =>
    message(request, {
      content: [
        ...(carriesText(answer) ? [{ type: 'text', text: answer.text }] : []),
        ...answer.toolCalls.map((call) => toolUseBlock(call, parsedOrText(call.inputText))),
      ],
      stop_reason: stopReasonOf(answer),
      usage: { ...inputUsageOf(answer.usage), output_tokens: answer.usage.outputTokens },
    }),
  streamOpening: (request, answer) => [
    // The message as it starts: no content yet, the input counted, output to follow in message_delta.
    event('message_start', {
      message: message(request, {
        content: [],
        stop_reason: null,
        usage: { ...inputUsageOf(answer.usage), output_tokens: 1 },
      }),
    }),
    ...(carriesText(answer)
      ? [event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })]
      : []),
    event('ping'),
  ],
  streamPiece: (_request, text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
  streamToolCall: (_request, answer, callIndex) => {
    const call = answer.toolCalls[callIndex]!;
    const textBlocks = carriesText(answer) ? 1 : 0;
    const index = textBlocks + callIndex;
    return [
      // Blocks stream one after another: the text block ends before the first tool_use block starts.
      ...(callIndex === 0 && textBlocks === 1 ? [event('content_block_stop', { index: 0 })] : []),
      event('content_block_start', { index, content_block: toolUseBlock(call, {}) }),
      // Anthropic opens every tool input with an empty piece.
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } }),
      ...inputPieces(call.inputText).map((piece) =>
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }),
      ),
      event('content_block_stop', { index }),
    ];
  },
  streamClosing: (_request, answer) => [
    ...(answer.toolCalls.length === 0 ? [event('content_block_stop', { index: 0 })] : []),
    event('message_delta', {
      delta: { stop_reason: stopReasonOf(answer), stop_sequence: null },
      usage: { output_tokens: answer.usage.outputTokens },
    }),
    event('message_stop'),
  ],
};

export function startFakeAnthropicServer(options: FakeProviderServerOptions = {}): Promise<FakeProviderServer> {
  return startFakeProviderServer(anthropicProtocol, options);
}

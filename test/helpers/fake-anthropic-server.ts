import {
  startFakeProviderServer,
  textOf,
  type FakeProviderServer,
  type ProviderProtocol,
  type RecordedRequest,
} from './fake-provider-server.js';

/**
 * The fake provider speaking the Anthropic Messages API (`POST /v1/messages`),
 * as documented by Anthropic and parsed by @ai-sdk/anthropic: a stream of
 * named events `message_start`, `content_block_start`, `ping`,
 * `content_block_delta` (`text_delta`)…, `content_block_stop`, `message_delta`
 * (stop_reason, output usage), `message_stop`; errors as
 * `{ "type": "error", "error": { "type", "message" } }`, whose `type` follows
 * the HTTP status (529 is `overloaded_error`).
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

function event(type: string, fields: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
}

/** The system prompt as sent: a string, or a list of text blocks. */
export function systemTextOf(request: RecordedRequest): string {
  const { system } = request.body;
  return system === undefined ? '' : textOf({ content: system });
}

export const anthropicProtocol: ProviderProtocol = {
  path: /\/v1\/messages$/,
  errorBody: (status, message) => ({ type: 'error', error: { type: errorTypes[status] ?? 'api_error', message } }),
  completeAnswer: (request, text, usage) =>
    message(request, {
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
    }),
  streamOpening: (request, usage) => [
    // The message as it starts: no content yet, the input counted, output to follow in message_delta.
    event('message_start', {
      message: message(request, {
        content: [],
        stop_reason: null,
        usage: { input_tokens: usage.inputTokens, output_tokens: 1 },
      }),
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('ping'),
  ],
  streamPiece: (_request, text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
  streamClosing: (_request, usage) => [
    event('content_block_stop', { index: 0 }),
    event('message_delta', {
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    }),
    event('message_stop'),
  ],
};

export function startFakeAnthropicServer(options: { port?: number } = {}): Promise<FakeProviderServer> {
  return startFakeProviderServer(anthropicProtocol, options);
}

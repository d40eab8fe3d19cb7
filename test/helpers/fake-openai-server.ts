import {
  startFakeProviderServer,
  type FakeProviderServer,
  type ProviderProtocol,
  type RecordedRequest,
  type TokenCounts,
} from './fake-provider-server.js';

/**
 * The fake provider speaking OpenAI Chat Completions (`POST …/chat/completions`),
 * which the `openai`, `openai-compatible` and `ollama` providers all use:
 * `chat.completion` answers, `chat.completion.chunk` events ending in
 * `data: [DONE]`, and errors as `{ "error": { "message", "type" } }`.
 */

function usageOf(usage: TokenCounts) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

function chunk(request: RecordedRequest, fields: Record<string, unknown>): string {
  const payload = {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: request.body.model,
    ...fields,
  };
  return `data: ${JSON.stringify(payload)}\n\n`;
}

export const openAiProtocol: ProviderProtocol = {
  path: /\/chat\/completions$/,
  errorBody: (_status, message) => ({ error: { message, type: 'test_error' } }),
  completeAnswer: (request, text, usage) => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: usageOf(usage),
  }),
  streamOpening: () => [],
  streamPiece: (request, text, index) =>
    chunk(request, {
      choices: [
        { index: 0, delta: { ...(index === 0 ? { role: 'assistant' } : {}), content: text }, finish_reason: null },
      ],
    }),
  streamClosing: (request, usage) => [
    chunk(request, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    ...(request.body.stream_options?.include_usage ? [chunk(request, { choices: [], usage: usageOf(usage) })] : []),
    'data: [DONE]\n\n',
  ],
};

export function startFakeOpenAiServer(options: { port?: number } = {}): Promise<FakeProviderServer> {
  return startFakeProviderServer(openAiProtocol, options);
}

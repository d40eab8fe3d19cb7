import {
  carriesText,
  startFakeProviderServer,
  type ChatMessage,
  type FakeProviderServer,
  type ProviderAnswer,
  type FakeProviderServerOptions,
  type ProviderProtocol,
  type RecordedRequest,
  type TokenCounts,
} from './fake-provider-server.js';
import {
  blockText,
  inputPieces,
  parsedOrText,
  type AnsweredToolCall,
  type RecordedToolCall,
} from './fake-provider-tools.js';

/**
 * The fake provider speaking OpenAI Chat Completions (`POST …/chat/completions`),
 * which the `openai`, `openai-compatible` and `ollama` providers all use:
 * `chat.completion` answers, `chat.completion.chunk` events ending in
 * `data: [DONE]`, and errors as `{ "error": { "message", "type" } }`.
 *
 * Tool calls: `fake.enqueue({ toolCalls: [{ name: 'calculator', input: { expression: '2+2' } }] },
 * { reply: 'It is 4.' })` answers the next request with the call and the one
 * bringing its result back with text (more in fake-provider-server.ts). They
 * come as OpenAI sends them: streamed, a first `delta.tool_calls[]` entry with the
 * call's index, id, type and function name and empty arguments, then entries
 * with only the index and a piece of the arguments text, and
 * `finish_reason: "tool_calls"`; whole, `message.tool_calls[]` with
 * `content: null` when there is no text. A request's tools are read from
 * `tools[].function`, its earlier calls from assistant `tool_calls`, its
 * results from `role: "tool"` messages (`tool_call_id`, `content`).
 */

function usageOf(usage: TokenCounts) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    // OpenAI counts cache hits among the prompt tokens and says how many in the details.
    ...(usage.cachedInputTokens !== undefined
      ? { prompt_tokens_details: { cached_tokens: usage.cachedInputTokens } }
      : {}),
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

function finishReasonOf(answer: ProviderAnswer): string {
  return answer.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

function wireToolCall(call: AnsweredToolCall) {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: call.inputText } };
}

interface WireTool {
  function?: { name: string; description?: string; parameters?: unknown };
}

interface WireToolCall {
  id: string;
  function: { name: string; arguments: string };
}

export const openAiProtocol: ProviderProtocol = {
  path: /\/chat\/completions$/,
  toolCallIdPrefix: 'call_',
  readTools: (body) => {
    const messages: ChatMessage[] = body.messages ?? [];
    return {
      offeredTools: ((body.tools as WireTool[] | undefined) ?? []).map((tool) => ({
        name: tool.function?.name ?? '',
        description: tool.function?.description,
        parameters: tool.function?.parameters,
      })),
      toolCalls: messages.flatMap((message) =>
        ((message.tool_calls as WireToolCall[] | undefined) ?? []).map((call): RecordedToolCall => ({
          id: call.id,
          name: call.function.name,
          input: parsedOrText(call.function.arguments),
        })),
      ),
      toolResults: messages
        .filter((message) => message.role === 'tool')
        .map((message) => ({
          toolCallId: String(message.tool_call_id),
          content: blockText(message.content),
          isError: undefined,
        })),
    };
  },
  errorBody: (_status, message) => ({ error: { message, type: 'test_error' } }),
  completeAnswer: (request, answer) => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.body.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: carriesText(answer) ? answer.text : null,
          ...(answer.toolCalls.length > 0 ? { tool_calls: answer.toolCalls.map(wireToolCall) } : {}),
        },
        finish_reason: finishReasonOf(answer),
      },
    ],
    usage: usageOf(answer.usage),
  }),
  streamOpening: () => [],
  streamPiece: (request, text, index) =>
    chunk(request, {
      choices: [
        { index: 0, delta: { ...(index === 0 ? { role: 'assistant' } : {}), content: text }, finish_reason: null },
      ],
    }),
  streamToolCall: (request, answer, callIndex) => {
    const call = answer.toolCalls[callIndex]!;
    const delta = (fields: Record<string, unknown>, toolCall: Record<string, unknown>) =>
      chunk(request, {
        choices: [
          { index: 0, delta: { ...fields, tool_calls: [{ index: callIndex, ...toolCall }] }, finish_reason: null },
        ],
      });
    // The first chunk of an answer says who speaks; with text before, that was said already.
    const opening = callIndex === 0 && !carriesText(answer) ? { role: 'assistant', content: null } : {};
    return [
      delta(opening, { id: call.id, type: 'function', function: { name: call.name, arguments: '' } }),
      ...inputPieces(call.inputText).map((piece) => delta({}, { function: { arguments: piece } })),
    ];
  },
  streamClosing: (request, answer) => [
    chunk(request, { choices: [{ index: 0, delta: {}, finish_reason: finishReasonOf(answer) }] }),
    ...(request.body.stream_options?.include_usage
      ? [chunk(request, { choices: [], usage: usageOf(answer.usage) })]
      : []),
    'data: [DONE]\n\n',
  ],
};

export function startFakeOpenAiServer(options: FakeProviderServerOptions = {}): Promise<FakeProviderServer> {
  return startFakeProviderServer(openAiProtocol, options);
}

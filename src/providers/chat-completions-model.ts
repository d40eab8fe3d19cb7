import { VERSION } from '@ai-sdk/openai-compatible';
import {
  convertOpenAICompatibleChatUsage,
  convertToOpenAICompatibleChatMessages,
  mapOpenAICompatibleFinishReason,
  prepareTools,
} from '@ai-sdk/openai-compatible/internal';
import {
  createJsonErrorResponseHandler,
  postJsonToApi,
  secureJsonParse,
  StreamingToolCallTracker,
  withUserAgentSuffix,
  withoutTrailingSlash,
  type StreamingToolCallDelta,
} from '@ai-sdk/provider-utils';
import { APICallError } from 'ai';
import { createParser } from 'eventsource-parser';
import { z } from 'zod';
import { promptOf, toolsOf } from './ai-sdk-model.js';
import type { FinishReason, ModelAdapter, ModelCall, ModelStreamPart } from './model-adapter.js';
import { ProviderError, toProviderError } from './provider-error.js';

/**
 * A model adapter for the OpenAI Chat Completions protocol of OpenAI-compatible
 * servers (the `openai-compatible` and `ollama` providers) that reads the
 * streamed answer in one loop, without web streams.
 *
 * Why not the AI SDK model's `doStream`: its answer passes through four piped
 * WHATWG streams (the body, a text decoder, the event-source parser, a JSON
 * transform, the model's own transform), about 46 KiB of heap per open call
 * of the 70 KiB the whole call holds (bench/README.md, message-overhead), and an
 * instance holds one per open streamed reply. Everything else is the SDK's,
 * so requests and failures are the same: the request body is built by the
 * provider's own message and tool conversion, sent and its failures read by
 * `postJsonToApi` and the provider's error handler, each event is parsed by
 * `eventsource-parser` and `secureJsonParse`, tool calls are assembled by
 * the SDK's `StreamingToolCallTracker`, and finish reasons and usage are
 * mapped by the provider's functions. test/integration/chat-completions-model.test.ts
 * holds it to the SDK model's requests, parts and failures.
 */

/** The provider's error body (`defaultOpenAICompatibleErrorStructure` of @ai-sdk/openai-compatible, not exported). */
const errorBodySchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string().nullish(),
    param: z.any().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
  }),
});

const failedResponseHandler = createJsonErrorResponseHandler({
  errorSchema: errorBodySchema,
  errorToMessage: (data) => data.error.message,
});

const knownFinishReasons = new Set<string>(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']);

interface ChunkToolCallDelta extends StreamingToolCallDelta {
  function?: { name?: string | null; arguments?: string | null } | null;
}

interface Chunk {
  choices: Array<{
    delta?: {
      content?: string | Array<{ type?: string; text?: unknown }> | null;
      tool_calls?: ChunkToolCallDelta[] | null;
    } | null;
    finish_reason?: string | null;
  }>;
  usage?: Parameters<typeof convertOpenAICompatibleChatUsage>[0];
}

/** Thrown for an event that is not a chunk of the protocol, as the SDK's chunk schema would reject it. */
class InvalidChunkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidChunkError';
  }
}

function chunkOf(data: string): Chunk {
  const value = secureJsonParse(data) as unknown;
  if (typeof value !== 'object' || value === null)
    throw new InvalidChunkError('The provider sent a chunk that is not an object.');
  // A provider that fails mid-answer sends its error as a chunk; the SDK gives it on as the error.
  if ('error' in value) throw (value as { error: unknown }).error;
  if (!Array.isArray((value as Chunk).choices))
    throw new InvalidChunkError('The provider sent a chunk without choices.');
  return value as Chunk;
}

/** The text of a delta's content: a string, or (some providers) an array of parts; reasoning is not text. */
function textOf(content: string | Array<{ type?: string; text?: unknown }> | null | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) if (part.type === 'text' && typeof part.text === 'string') text += part.text;
  return text;
}

/**
 * The chunks of one answer turned into parts, as the SDK's openai-compatible
 * chat model does in its stream transform (text, tool calls, finish reason and
 * usage; reasoning and metadata, which agentd does not use, are left out).
 */
class AnswerReader {
  private readonly toolCalls: ModelStreamPart[] = [];
  private readonly tracker = new StreamingToolCallTracker<ChunkToolCallDelta>({
    enqueue: (part) => {
      if (part.type === 'tool-call')
        this.toolCalls.push({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
        });
    },
  });
  // Deltas of a call whose name has not come yet are held back, as the SDK's model does.
  private readonly pending = new Map<number, { id: string | null; bufferedArguments: string }>();
  private readonly forwarded = new Set<number>();
  private finishReason: string | undefined;
  private usage: Chunk['usage'];

  /** The parts one event's data makes, in order. */
  *read(data: string): Generator<ModelStreamPart> {
    if (data === '[DONE]') return;
    const chunk = chunkOf(data);
    if (chunk.usage != null) this.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice?.finish_reason != null) this.finishReason = mapOpenAICompatibleFinishReason(choice.finish_reason);
    const delta = choice?.delta;
    if (delta == null) return;
    const text = textOf(delta.content);
    if (text !== '') yield { type: 'text-delta', text };
    for (const toolCallDelta of delta.tool_calls ?? []) this.toolCallDelta(toolCallDelta);
    yield* this.toolCalls.splice(0);
  }

  /** The parts the end of the answer makes: tool calls not yet given, then the finish. */
  *end(): Generator<ModelStreamPart> {
    for (const [index, pending] of this.pending) {
      this.tracker.processDelta({ index, id: pending.id, function: { arguments: pending.bufferedArguments } });
    }
    this.pending.clear();
    this.tracker.flush();
    yield* this.toolCalls.splice(0);
    if (this.finishReason === undefined) throw new InvalidChunkError('Response stream ended without a finish reason.');
    const usage = convertOpenAICompatibleChatUsage(this.usage ?? undefined);
    const inputTokens = usage.inputTokens.total ?? 0;
    const outputTokens = usage.outputTokens.total ?? 0;
    yield {
      type: 'finish',
      finishReason: knownFinishReasons.has(this.finishReason) ? (this.finishReason as FinishReason) : 'other',
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    };
  }

  private toolCallDelta(toolCallDelta: ChunkToolCallDelta): void {
    const index = toolCallDelta.index;
    if (index == null || this.forwarded.has(index)) {
      this.tracker.processDelta(toolCallDelta);
      return;
    }
    let pending = this.pending.get(index);
    if (pending === undefined) {
      pending = { id: toolCallDelta.id ?? null, bufferedArguments: '' };
      this.pending.set(index, pending);
    } else if (pending.id == null && toolCallDelta.id != null) {
      pending.id = toolCallDelta.id;
    }
    if (toolCallDelta.function?.arguments != null) pending.bufferedArguments += toolCallDelta.function.arguments;
    const name = toolCallDelta.function?.name;
    if (name != null) {
      this.tracker.processDelta({ index, id: pending.id, function: { name, arguments: pending.bufferedArguments } });
      this.pending.delete(index);
      this.forwarded.add(index);
    }
  }
}

export interface ChatCompletionsSettings {
  /** The provider's name, as agentd's messages and the SDK's user agent give it. */
  name: string;
  baseURL: string;
  apiKey?: string;
  fetch: typeof fetch;
}

export class ChatCompletionsModel implements ModelAdapter {
  private readonly url: string;

  constructor(private readonly settings: ChatCompletionsSettings) {
    this.url = `${withoutTrailingSlash(settings.baseURL)}/chat/completions`;
  }

  async *stream(call: ModelCall): AsyncIterable<ModelStreamPart> {
    const fail = (error: unknown) =>
      // Whoever aborted (the client, or the gateway's time-out) knows why; here it is only an abort.
      call.abortSignal.aborted
        ? new ProviderError('aborted', 'The model call was aborted.', { cause: error })
        : toProviderError(error, this.settings.name, call.modelName);
    const apiKey = call.apiKey ?? this.settings.apiKey;
    const tools = toolsOf(call);
    const prepared = prepareTools({ tools: tools.tools, toolChoice: tools.toolChoice });
    let answered: { value: Response; responseHeaders?: Record<string, string> };
    try {
      answered = await postJsonToApi({
        url: this.url,
        headers: withUserAgentSuffix(
          apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
          `ai-sdk/openai-compatible/${VERSION}`,
        ),
        // The SDK model's body for these settings, key for key (JSON leaves out what is undefined).
        body: {
          model: call.modelName,
          max_tokens: call.settings.maxOutputTokens,
          temperature: call.settings.temperature,
          top_p: call.settings.topP,
          messages: convertToOpenAICompatibleChatMessages(promptOf(call)),
          tools: prepared.tools,
          tool_choice: prepared.toolChoice,
          stream: true,
          stream_options: { include_usage: true },
        },
        failedResponseHandler,
        successfulResponseHandler: async ({ response }) => {
          if (response.body === null) throw new InvalidChunkError('The provider answered without a body.');
          return { value: response };
        },
        abortSignal: call.abortSignal,
        fetch: this.settings.fetch,
      });
    } catch (error) {
      throw fail(error);
    }
    const response = answered.value;
    const reader = response.body!.getReader();
    /** A failure to read the body, as the SDK reports it: a retryable failure of a successful response. */
    const readFailure = (error: unknown) =>
      call.abortSignal.aborted
        ? error
        : new APICallError({
            message: 'Failed to process successful response',
            cause: error,
            url: this.url,
            requestBodyValues: undefined,
            statusCode: response.status,
            ...(answered.responseHeaders ? { responseHeaders: answered.responseHeaders } : {}),
            isRetryable: true,
          });
    const decoder = new TextDecoder();
    const events: string[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event.data) });
    const answer = new AnswerReader();
    let finished = false;
    try {
      for (;;) {
        let read: Awaited<ReturnType<typeof reader.read>>;
        // Awaited here, not through a `.catch` promise: one promise fewer per word for every waiting stream.
        try {
          read = await reader.read();
        } catch (error) {
          throw readFailure(error);
        }
        const { done, value } = read;
        if (done) {
          parser.feed(decoder.decode());
          // As the SDK's parser stream ends: a last event without its blank line is still an event.
          parser.reset({ consume: true });
        } else {
          parser.feed(decoder.decode(value, { stream: true }));
        }
        for (const data of events.splice(0)) yield* answer.read(data);
        if (done) break;
      }
      for (const part of answer.end()) {
        if (part.type === 'finish') finished = true;
        yield part;
      }
      return;
    } catch (error) {
      throw fail(error);
    } finally {
      if (!finished) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  }
}

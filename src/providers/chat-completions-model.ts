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
  withoutTrailingSlash,
  type StreamingToolCallDelta,
} from '@ai-sdk/provider-utils';
import { APICallError } from '@ai-sdk/provider';
import { createParser } from 'eventsource-parser';
import { z } from 'zod';
import { promptOf, tokenUsageOf, toolsOf } from './ai-sdk-model.js';
import type { FinishReason, ModelAdapter, ModelCall, ModelStreamPart } from './model-adapter.js';
import { claimBody, type ClaimedBody } from '../outbound/response-body.js';
import { receiveFrom, type Receiver, type ReceivingIterator } from '../receiving-iterator.js';
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

  /**
   * Adds the parts one event's data makes to `parts`, in order. Not a
   * generator: this runs for every word of every open answer, and a
   * generator, its results and the spliced tool-call array were objects per
   * word that each young collection had to sweep.
   */
  read(data: string, parts: ModelStreamPart[]): void {
    if (data === '[DONE]') return;
    const chunk = chunkOf(data);
    if (chunk.usage != null) this.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice?.finish_reason != null) this.finishReason = mapOpenAICompatibleFinishReason(choice.finish_reason);
    const delta = choice?.delta;
    if (delta == null) return;
    const text = textOf(delta.content);
    if (text !== '') parts.push({ type: 'text-delta', text });
    const toolCallDeltas = delta.tool_calls;
    if (toolCallDeltas == null || toolCallDeltas.length === 0) return;
    for (const toolCallDelta of toolCallDeltas) this.toolCallDelta(toolCallDelta);
    this.takeToolCalls(parts);
  }

  /** Adds the parts the end of the answer makes to `parts`: tool calls not yet given, then the finish. */
  end(parts: ModelStreamPart[]): void {
    for (const [index, pending] of this.pending) {
      this.tracker.processDelta({ index, id: pending.id, function: { arguments: pending.bufferedArguments } });
    }
    this.pending.clear();
    this.tracker.flush();
    this.takeToolCalls(parts);
    if (this.finishReason === undefined) throw new InvalidChunkError('Response stream ended without a finish reason.');
    parts.push({
      type: 'finish',
      finishReason: knownFinishReasons.has(this.finishReason) ? (this.finishReason as FinishReason) : 'other',
      // Cached tokens as servers that cache report them, in OpenAI's `prompt_tokens_details.cached_tokens`.
      usage: tokenUsageOf(convertOpenAICompatibleChatUsage(this.usage ?? undefined)),
    });
  }

  /** Moves the tool calls completed so far to `parts`. */
  private takeToolCalls(parts: ModelStreamPart[]): void {
    for (const call of this.toolCalls) parts.push(call);
    this.toolCalls.length = 0;
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

  stream(call: ModelCall): AsyncIterable<ModelStreamPart> {
    return {
      [Symbol.asyncIterator]: (): ReceivingIterator<ModelStreamPart> => new AnswerStream(this.url, this.settings, call),
    };
  }
}

/** The user agent the SDK's OpenAI-compatible provider sends (its transport appends its own parts). */
const userAgent = `ai-sdk/openai-compatible/${VERSION}`;

/** `TextDecoder.decode`'s options for a body read in pieces: one object, not one per piece. */
const streaming = { stream: true } as const;

/** Parts read ahead of the consumer before the provider's body is paused. */
const maxPartsAhead = 64;

/**
 * One call's answer: the request is made at the first `next()`, then the
 * body's chunks are parsed as they arrive (`claimBody`) into parts that
 * `next()` hands out in order, a failure after the parts before it. Written
 * as an iterator, not an async generator reading a web stream: an answer
 * waiting for its next word then holds one pending promise, not a
 * generator's, a read's and the web stream's, and a reply keeps one open per
 * open stream (10,000 on one instance, bench/README.md "Open streams").
 * Read with `receive`, it holds none: only its reader's receiver.
 */
class AnswerStream implements ReceivingIterator<ModelStreamPart> {
  #opened: Promise<void> | null = null;
  #body: ClaimedBody | null = null;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  readonly #parts: ModelStreamPart[] = [];
  #failure: { error: unknown } | null = null;
  /** Every part is in `#parts` (the body ended and the answer was whole). */
  #complete = false;
  /** Nothing more to hand out: the answer ended, failed, or its reader returned. */
  #done = false;
  #waiter: Receiver<IteratorResult<ModelStreamPart>> | null = null;
  readonly #decoder = new TextDecoder();
  readonly #events: string[] = [];
  readonly #parser = createParser({ onEvent: (event) => this.#events.push(event.data) });
  readonly #answer = new AnswerReader();
  /** The body is paused: the consumer is `maxPartsAhead` parts behind. */
  #paused = false;
  /** Resumes a paused web-stream pump. */
  #room: (() => void) | null = null;
  #status = 0;
  #responseHeaders: Record<string, string> | undefined;

  constructor(
    private readonly url: string,
    private readonly settings: ChatCompletionsSettings,
    private readonly call: ModelCall,
  ) {}

  next(): Promise<IteratorResult<ModelStreamPart>> {
    if (this.#opened === null) {
      this.#opened = this.#open();
      return this.#opened.then(
        () => this.next(),
        (error: unknown) => {
          this.#done = true;
          throw error;
        },
      );
    }
    const ready = this.#ready();
    if (ready === null) return new Promise((resolve, reject) => (this.#waiter = { received: resolve, failed: reject }));
    return 'error' in ready ? Promise.reject(ready.error) : Promise.resolve(ready.result);
  }

  receive(receiver: Receiver<IteratorResult<ModelStreamPart>>): void {
    // The first pull makes the request: a promise once per answer.
    if (this.#opened === null) return receiveFrom(this.next(), receiver);
    this.#waiter = receiver;
    // What is ready already is handed over after this returns, as a promise's reaction would be.
    if (this.#parts.length > 0 || this.#failure !== null || this.#complete || this.#done) queueMicrotask(this.#handNow);
  }

  readonly #handNow = (): void => this.#hand();

  /** What `next()` gives now, taken from the answer: a part, the failure, the end; null while there is none. */
  #ready(): { result: IteratorResult<ModelStreamPart> } | { error: unknown } | null {
    if (this.#parts.length > 0) {
      const value = this.#parts.shift() as ModelStreamPart;
      if (this.#paused && this.#parts.length === 0) this.#resume();
      return { result: { value, done: false } };
    }
    if (this.#failure !== null) {
      const { error } = this.#failure;
      this.#failure = null;
      this.#done = true;
      return { error };
    }
    if (this.#complete || this.#done) {
      this.#done = true;
      return { result: { value: undefined, done: true } };
    }
    return null;
  }

  /** The reader stopped early: the rest of the answer is not read. */
  return(): Promise<IteratorResult<ModelStreamPart>> {
    this.#stop();
    this.#parts.length = 0;
    this.#failure = null;
    this.#done = true;
    this.#hand();
    return Promise.resolve({ value: undefined, done: true });
  }

  /** Whoever aborted (the client, or the gateway's time-out) knows why; here it is only an abort. */
  #fail(error: unknown): ProviderError {
    return this.call.abortSignal.aborted
      ? new ProviderError('aborted', 'The model call was aborted.', { cause: error })
      : toProviderError(error, this.settings.name, this.call.modelName);
  }

  async #open(): Promise<void> {
    const { call, settings } = this;
    const apiKey = call.apiKey ?? settings.apiKey;
    const tools = toolsOf(call);
    const prepared = prepareTools({ tools: tools.tools, toolChoice: tools.toolChoice });
    let answered: { value: Response; responseHeaders?: Record<string, string> };
    try {
      answered = await postJsonToApi({
        url: this.url,
        // What the SDK's own `withUserAgentSuffix` makes of them, without building a web Headers for it.
        headers: apiKey ? { authorization: `Bearer ${apiKey}`, 'user-agent': userAgent } : { 'user-agent': userAgent },
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
        fetch: settings.fetch,
      });
    } catch (error) {
      throw this.#fail(error);
    }
    const response = answered.value;
    this.#status = response.status;
    this.#responseHeaders = answered.responseHeaders;
    const body = response.body as ReadableStream<Uint8Array>;
    this.#body = claimBody(body, {
      data: (chunk) => this.#chunk(this.#decoder.decode(chunk, streaming)),
      end: () => this.#end(),
      error: (error) => this.#broken(error),
    });
    // A body from another fetch: read through its web stream, into the same parts.
    if (this.#body === null) void this.#pump(body.getReader());
  }

  async #pump(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    this.#reader = reader;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (this.#done) return;
        if (done) return this.#end();
        this.#chunk(this.#decoder.decode(value, streaming));
        if (this.#paused) await new Promise<void>((resolve) => (this.#room = resolve));
      }
    } catch (error) {
      if (!this.#done) this.#broken(error);
    }
  }

  #chunk(text: string): void {
    if (this.#done || this.#failure !== null) return;
    try {
      this.#parser.feed(text);
      this.#parse();
    } catch (error) {
      this.#failed(error);
      return;
    }
    if (this.#parts.length >= maxPartsAhead) {
      this.#paused = true;
      this.#body?.pause();
    }
    this.#hand();
  }

  #resume(): void {
    this.#paused = false;
    this.#body?.resume();
    const room = this.#room;
    this.#room = null;
    room?.();
  }

  /** The events parsed so far, turned into parts; the list is emptied in place (one per word, no new array). */
  #parse(): void {
    const events = this.#events;
    try {
      for (let index = 0; index < events.length; index += 1) this.#answer.read(events[index] as string, this.#parts);
    } finally {
      events.length = 0;
    }
  }

  #end(): void {
    if (this.#done || this.#failure !== null) return;
    try {
      this.#parser.feed(this.#decoder.decode());
      // As the SDK's parser stream ends: a last event without its blank line is still an event.
      this.#parser.reset({ consume: true });
      this.#parse();
      this.#answer.end(this.#parts);
      this.#complete = true;
    } catch (error) {
      this.#failed(error);
      return;
    }
    this.#hand();
  }

  /** A failure to read the body, as the SDK reports it: a retryable failure of a successful response. */
  #broken(error: unknown): void {
    if (this.#done || this.#failure !== null || this.#complete) return;
    this.#failed(
      this.call.abortSignal.aborted
        ? error
        : new APICallError({
            message: 'Failed to process successful response',
            cause: error,
            url: this.url,
            requestBodyValues: undefined,
            statusCode: this.#status,
            ...(this.#responseHeaders ? { responseHeaders: this.#responseHeaders } : {}),
            isRetryable: true,
          }),
    );
  }

  /** Ends the answer with `error` after the parts before it, and stops reading. */
  #failed(error: unknown): void {
    this.#failure = { error: this.#fail(error) };
    this.#stop();
    this.#hand();
  }

  #stop(): void {
    // A pump waiting for room goes on to find the answer done.
    this.#room?.();
    this.#room = null;
    if (this.#complete) return;
    this.#body?.cancel();
    this.#reader?.cancel().catch(() => undefined);
  }

  /** Settles a waiting `next()` with what there is now. */
  #hand(): void {
    const waiter = this.#waiter;
    if (waiter === null) return;
    const ready = this.#ready();
    if (ready === null) return;
    this.#waiter = null;
    if ('error' in ready) waiter.failed(ready.error);
    else waiter.received(ready.result);
  }
}

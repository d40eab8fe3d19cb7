import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  answeredToolCalls,
  type AnsweredToolCall,
  type OfferedTool,
  type RecordedToolCall,
  type RecordedToolResult,
  type ScriptedToolCall,
} from './fake-provider-tools.js';

/**
 * A small model provider for tests and benchmarks, listening on loopback only.
 * What is common to every provider API lives here: it answers streamed and
 * non-streamed requests, can be told to wait, fail with a status, pace its
 * tokens slowly or hang, and records every request it receives (and whether
 * its client went away before the answer was complete), so tests can read
 * what agentd sent to the model. How answers are framed on the wire is the
 * `ProviderProtocol`'s business (fake-openai-server.ts, fake-anthropic-server.ts).
 *
 * Scripting: `enqueue` behaviours for the next requests, one each, or give
 * `setDefault`/`enqueue` a function from the request to its behaviour. A
 * behaviour with `toolCalls` answers with those calls (after `reply`, when
 * given); the request that brings their results back can then be answered
 * with text by the next queued behaviour, e.g.
 *
 *   fake.enqueue(
 *     { toolCalls: [{ name: 'calculator', input: { expression: '2+2' } }] },
 *     { reply: 'It is 4.' },
 *   );
 *
 * or, whatever the order of requests:
 *
 *   fake.setDefault((request) =>
 *     request.toolResults.length > 0 ? { reply: 'It is 4.' } : { toolCalls: [{ name: 'calculator', input: {} }] },
 *   );
 *
 * Every recorded request says which tools it offered (`offeredTools`), which
 * earlier tool calls its conversation carries (`toolCalls`) and which results
 * it sends back (`toolResults`), in one shape for every wire format.
 */

export interface TokenCounts {
  /** Every input token of the request, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, those read from the provider's prompt cache (each protocol reports them its own way). */
  cachedInputTokens?: number;
}

export interface FakeBehaviour {
  /**
   * The reply text; split on spaces into one piece per word when streamed. Default: "Reply to: <last user
   * text>", or no text when the answer has tool calls.
   */
  reply?: string | ((request: RecordedRequest) => string);
  /** Tool calls the answer makes, after its text (finish reason `tool_calls` / `tool_use`). */
  toolCalls?: ScriptedToolCall[];
  /** Milliseconds before the response headers. */
  delayMs?: number;
  /** Answer with this HTTP status and the protocol's error body instead of an answer. */
  status?: number;
  /** Error message sent with `status`. */
  errorMessage?: string;
  /** Headers sent with `status`, e.g. `{ 'retry-after': '7' }` with a 429. */
  errorHeaders?: Record<string, string>;
  /**
   * Answer 200 with exactly this body and content type instead of an answer, streamed or not (a provider, or a
   * proxy in front of it, sending something that is not its API: truncated JSON, an HTML error page).
   */
  rawAnswer?: { contentType: string; body: string };
  /** Milliseconds between streamed pieces (cut short when the client goes away). */
  tokenDelayMs?: number;
  /** Send the headers, then nothing: the first token never comes. */
  hang?: boolean;
  /**
   * Streamed only: after this many pieces (words of text, then the frames of tool calls), destroy the
   * connection (a provider failing mid-stream).
   */
  failAfterChunks?: number;
  /** Streamed only: after this many pieces, send nothing more but keep the connection open (a stalled stream). */
  stallAfterChunks?: number;
  /** Streamed only: in place of the piece at this index, a frame whose data is not JSON; then the rest as usual. */
  garbageAtChunk?: number;
  /** Token counts reported with the answer. Default: 12 in, one per word out. */
  usage?: TokenCounts;
}

/** A behaviour, or how to choose one from the request it answers. */
export type FakeScript = FakeBehaviour | ((request: RecordedRequest) => FakeBehaviour);

export interface ChatMessage {
  role: string;
  /** Null in an OpenAI assistant message that only calls tools. */
  content: string | null | Array<{ type: string; text?: string; [key: string]: unknown }>;
  [key: string]: unknown;
}

export interface RecordedRequest {
  path: string;
  /** '1.1', or '2.0' when it came over HTTP/2. */
  httpVersion: string;
  /** Every request header, names in lower case (`authorization`, `x-api-key`, `anthropic-version`…). */
  headers: http.IncomingHttpHeaders;
  authorization: string | undefined;
  body: {
    model: string;
    messages: ChatMessage[];
    /** Anthropic's system prompt, outside `messages`. */
    system?: string | Array<{ type: string; text?: string }>;
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    temperature?: number;
    max_tokens?: number;
    max_completion_tokens?: number;
    top_p?: number;
    [key: string]: unknown;
  };
  /** The tools the request offered the model. */
  offeredTools: OfferedTool[];
  /** Earlier tool calls the conversation carries, in order. */
  toolCalls: RecordedToolCall[];
  /** Tool results the request sends back, in order. */
  toolResults: RecordedToolResult[];
  /** True when the client closed the connection before the answer was complete. */
  aborted: boolean;
  /** True once the answer was sent completely. */
  completed: boolean;
  /** `performance.now()` of this process when the request's body was in (benchmarks time the gaps between calls). */
  receivedAt: number;
  /** `performance.now()` when the last byte of the answer was handed to the socket; undefined until then. */
  completedAt?: number;
  /** True once the exchange is over, whoever ended it: answered, broken off by the fake, or left by the client. */
  closed: boolean;
}

/** What the fake answers one request with, before a protocol frames it. */
export interface ProviderAnswer {
  text: string;
  toolCalls: AnsweredToolCall[];
  usage: TokenCounts;
}

/** Whether the answer has text to send: an answer of tool calls alone has none, any other at least an empty one. */
export function carriesText(answer: ProviderAnswer): boolean {
  return answer.text !== '' || answer.toolCalls.length === 0;
}

/** How one provider API frames its answers and errors. */
export interface ProviderProtocol {
  /** The path of the requests it answers (POST), e.g. /\/chat\/completions$/. */
  path: RegExp;
  /** How the ids of the tool calls it makes up start (call_, toolu_). */
  toolCallIdPrefix: string;
  /** The tools offered, the earlier calls and the results sent back, read from a request body. */
  readTools(body: RecordedRequest['body']): Pick<RecordedRequest, 'offeredTools' | 'toolCalls' | 'toolResults'>;
  /** The JSON body of an error answer with this HTTP status. */
  errorBody(status: number, message: string): unknown;
  /** The whole answer, for a request that did not ask for a stream. */
  completeAnswer(request: RecordedRequest, answer: ProviderAnswer): unknown;
  /** Server-sent event frames sent before the first piece of text. */
  streamOpening(request: RecordedRequest, answer: ProviderAnswer): string[];
  /** The frame carrying one piece of text; `index` counts pieces from 0. */
  streamPiece(request: RecordedRequest, text: string, index: number): string;
  /** The frames carrying the answer's tool call at `callIndex`, after the text. */
  streamToolCall(request: RecordedRequest, answer: ProviderAnswer, callIndex: number): string[];
  /** Frames sent after the last piece of text and tool call. */
  streamClosing(request: RecordedRequest, answer: ProviderAnswer): string[];
}

export interface FakeProviderServer {
  /** Base URL including `/v1`, e.g. http://127.0.0.1:40123/v1 */
  baseUrl: string;
  /** Base URL without `/v1` (as Ollama and Anthropic users often write it). */
  origin: string;
  /** Connections accepted so far (TLS connections when serving https:). */
  readonly connections: number;
  /** The HTTP/2 connections open now (serving https: with HTTP/2). */
  readonly http2Sessions: http2.ServerHttp2Session[];
  requests: RecordedRequest[];
  /** The behaviour for requests with no queued behaviour. */
  setDefault(behaviour: FakeScript): void;
  /** Behaviours used by the next requests, one each, in order. */
  enqueue(...behaviours: FakeScript[]): void;
  /** Resolves when at least `count` requests have arrived in total. */
  waitForRequests(count: number): Promise<void>;
  /** Resolves when the request at `index` has been aborted by its client. */
  waitForAbort(index: number): Promise<void>;
  /**
   * agentd's background memory work (fact extraction, summaries; see services/memory/memory-model.ts),
   * kept apart so that it neither shows in `requests` nor takes a queued behaviour.
   */
  memoryRequests: RecordedRequest[];
  /** The behaviour for memory work; default: no facts, and a one-line summary. */
  setMemoryBehaviour(behaviour: FakeScript): void;
  /** Forgets recorded requests and queued behaviours. */
  reset(): void;
  close(): Promise<void>;
}

/** The system prompt of a request, in either wire format. */
export function systemTextOf(request: Pick<RecordedRequest, 'body'>): string {
  const { system, messages } = request.body;
  if (typeof system === 'string') return system;
  if (Array.isArray(system)) return system.map((part) => part.text ?? '').join('');
  const first = messages?.find((message) => message.role === 'system');
  return first ? textOf(first) : '';
}

/** Whether the request is agentd's background memory work rather than a reply. */
export function isMemoryTask(request: Pick<RecordedRequest, 'body'>): boolean {
  return systemTextOf(request).startsWith('agentd-memory-task');
}

const defaultMemoryBehaviour: FakeScript = (request) => ({
  reply: systemTextOf(request).startsWith('agentd-memory-task: facts') ? '{"facts":[]}' : 'A conversation.',
});

/** The text of a message, whether content is a string, a list of parts or (only tool calls) null. */
export function textOf(message: Pick<ChatMessage, 'content'>): string {
  if (message.content === null) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => part.text ?? '').join('');
}

/** The conversation a request carried, as "role: text" lines; a system message is left out. */
export function turnsOf(request: RecordedRequest): string[] {
  return request.body.messages
    .filter((message) => message.role !== 'system')
    .map((message) => `${message.role}: ${textOf(message)}`);
}

/**
 * What the user wrote in the last user message: without the block of notes agentd puts before it (knowledge,
 * context, recalled turns), so an echoed reply is as long whatever the notes hold, as a model's answer would be.
 */
function lastUserText(request: RecordedRequest): string {
  const last = request.body.messages.filter((message) => message.role === 'user').at(-1);
  return last ? textOf(last).replace(/^<message-notes>\n[\s\S]*?\n<\/message-notes>\n\n/, '') : '';
}

/** One client connection: its pauses end early when the client goes away, so no timer outlives it. */
class Connection {
  closed = false;
  /** Set when the fake itself breaks the connection (failAfterChunks): not the client's abort. */
  brokenOnPurpose = false;
  readonly #waiting = new Set<() => void>();

  close(): void {
    this.closed = true;
    for (const wake of this.#waiting) wake();
  }

  pause(milliseconds: number): Promise<void> {
    if (milliseconds <= 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, milliseconds);
      this.#waiting.add(wake);
    });
  }
}

/** A server-sent event whose data is cut-off JSON: no provider's parser can read it. */
const garbageFrame = 'data: {"choices": [{"delta": {"content": "tru\n\n';

async function answer(
  protocol: ProviderProtocol,
  request: RecordedRequest,
  behaviour: FakeBehaviour,
  response: http.ServerResponse,
  connection: Connection,
) {
  await connection.pause(behaviour.delayMs ?? 0);
  if (connection.closed) return;
  if (behaviour.status !== undefined) {
    response.writeHead(behaviour.status, { 'content-type': 'application/json', ...behaviour.errorHeaders });
    request.completed = true;
    response.end(
      JSON.stringify(protocol.errorBody(behaviour.status, behaviour.errorMessage ?? `failure ${behaviour.status}`)),
    );
    return;
  }
  if (behaviour.rawAnswer !== undefined) {
    response.writeHead(200, { 'content-type': behaviour.rawAnswer.contentType });
    request.completed = true;
    response.end(behaviour.rawAnswer.body);
    return;
  }
  const toolCalls = answeredToolCalls(behaviour.toolCalls ?? [], protocol.toolCallIdPrefix);
  const text =
    typeof behaviour.reply === 'function'
      ? behaviour.reply(request)
      : (behaviour.reply ?? (toolCalls.length > 0 ? '' : `Reply to: ${lastUserText(request)}`));
  const usage = behaviour.usage ?? { inputTokens: 12, outputTokens: text.split(' ').length + toolCalls.length };
  const providerAnswer: ProviderAnswer = { text, toolCalls, usage };

  if (!request.body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    if (behaviour.hang) return;
    request.completed = true;
    response.end(JSON.stringify(protocol.completeAnswer(request, providerAnswer)));
    request.completedAt = performance.now();
    return;
  }

  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    // HTTP/2 has no connection header.
    ...(request.httpVersion === '2.0' ? {} : { connection: 'keep-alive' }),
  });
  response.flushHeaders();
  if (behaviour.hang) return;
  const breakOff = () => {
    connection.brokenOnPurpose = true;
    // An HTTP/2 answer is a stream of a connection that other answers share: only the stream is broken.
    if ('stream' in response) (response as unknown as http2.Http2ServerResponse).stream.destroy();
    else response.destroy();
  };
  for (const frame of protocol.streamOpening(request, providerAnswer)) response.write(frame);
  const textPieces = carriesText(providerAnswer) ? text.split(/(?<= )/) : [];
  const pieces = [
    ...textPieces.map((piece, index) => protocol.streamPiece(request, piece, index)),
    ...toolCalls.flatMap((_call, callIndex) => protocol.streamToolCall(request, providerAnswer, callIndex)),
  ];
  for (const [index, piece] of pieces.entries()) {
    if (index > 0) await connection.pause(behaviour.tokenDelayMs ?? 0);
    if (behaviour.failAfterChunks !== undefined && index >= behaviour.failAfterChunks) return breakOff();
    // Held open until the client gives up: `close` records whether it did.
    if (behaviour.stallAfterChunks !== undefined && index >= behaviour.stallAfterChunks) return;
    if (connection.closed) return;
    response.write(index === behaviour.garbageAtChunk ? garbageFrame : piece);
  }
  if (behaviour.failAfterChunks !== undefined && pieces.length >= behaviour.failAfterChunks) return breakOff();
  for (const frame of protocol.streamClosing(request, providerAnswer)) response.write(frame);
  request.completed = true;
  response.end();
  request.completedAt = performance.now();
}

export interface FakeProviderServerOptions {
  port?: number;
  /**
   * Serve https: with this key and certificate. With `http2` (the default) the server offers HTTP/2 and
   * HTTP/1.1 by ALPN, as hosted providers do; with `http2: false`, HTTP/1.1 only.
   */
  tls?: { key: string; cert: string; http2?: boolean };
}

export async function startFakeProviderServer(
  protocol: ProviderProtocol,
  options: FakeProviderServerOptions = {},
): Promise<FakeProviderServer> {
  let defaultBehaviour: FakeScript = {};
  let queue: FakeScript[] = [];
  let memoryBehaviour: FakeScript = defaultMemoryBehaviour;
  const requests: RecordedRequest[] = [];
  const memoryRequests: RecordedRequest[] = [];
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const until = (condition: () => boolean) =>
    new Promise<void>((resolve) => {
      if (condition()) return resolve();
      const listener = () => {
        if (!condition()) return;
        listeners.delete(listener);
        resolve();
      };
      listeners.add(listener);
    });

  const handle = (incoming: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const receivedAt = performance.now();
      const path = incoming.url ?? '';
      if (!protocol.path.test(path) || incoming.method !== 'POST') {
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify(protocol.errorBody(404, 'not found')));
        return;
      }
      let body: RecordedRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
      } catch {
        response
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify(protocol.errorBody(400, 'bad json')));
        return;
      }
      const recorded: RecordedRequest = {
        path,
        httpVersion: incoming.httpVersion,
        headers: incoming.headers,
        authorization: incoming.headers.authorization,
        body,
        ...protocol.readTools(body),
        aborted: false,
        completed: false,
        receivedAt,
        closed: false,
      };
      const memoryTask = isMemoryTask(recorded);
      (memoryTask ? memoryRequests : requests).push(recorded);
      const connection = new Connection();
      response.on('close', () => {
        connection.close();
        recorded.closed = true;
        if (!recorded.completed && !connection.brokenOnPurpose) recorded.aborted = true;
        notify();
      });
      notify();
      const script = memoryTask ? memoryBehaviour : (queue.shift() ?? defaultBehaviour);
      void answer(protocol, recorded, typeof script === 'function' ? script(recorded) : script, response, connection);
    });
  };
  const sessions = new Set<http2.ServerHttp2Session>();
  const sockets = new Set<import('node:net').Socket>();
  let connections = 0;
  const server =
    options.tls === undefined
      ? http.createServer(handle)
      : options.tls.http2 === false
        ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, handle)
        : http2.createSecureServer(
            { key: options.tls.key, cert: options.tls.cert, allowHTTP1: true },
            handle as unknown as (request: http2.Http2ServerRequest, response: http2.Http2ServerResponse) => void,
          );
  server.on(options.tls === undefined ? 'connection' : 'secureConnection', (socket: import('node:net').Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('session', (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;

  return {
    baseUrl: `${origin}/v1`,
    origin,
    get connections() {
      return connections;
    },
    get http2Sessions() {
      return [...sessions];
    },
    requests,
    memoryRequests,
    setMemoryBehaviour(behaviour) {
      memoryBehaviour = behaviour;
    },
    setDefault(behaviour) {
      defaultBehaviour = behaviour;
    },
    enqueue(...behaviours) {
      queue.push(...behaviours);
    },
    waitForRequests: (count) => until(() => requests.length >= count),
    waitForAbort: (index) => until(() => requests[index]?.aborted === true),
    reset() {
      requests.length = 0;
      memoryRequests.length = 0;
      queue = [];
      defaultBehaviour = {};
      memoryBehaviour = defaultMemoryBehaviour;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const session of sessions) session.destroy();
        for (const socket of sockets) socket.destroy();
        if (server instanceof http.Server) server.closeAllConnections();
      }),
  };
}

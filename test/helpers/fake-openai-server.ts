import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small OpenAI-compatible Chat Completions server for tests and benchmarks,
 * listening on loopback only. It answers streamed and non-streamed requests,
 * can be told to wait, fail with a status, pace its tokens slowly or hang, and
 * records every request it receives (and whether its client went away before
 * the answer was complete), so tests can read what agentd sent to the model.
 */

export interface FakeBehaviour {
  /** The reply text; split on spaces into one chunk per word when streamed. Default: "Reply to: <last user text>". */
  reply?: string | ((request: RecordedRequest) => string);
  /** Milliseconds before the response headers. */
  delayMs?: number;
  /** Answer with this HTTP status and an OpenAI-style error body instead of a completion. */
  status?: number;
  /** Error message sent with `status`. */
  errorMessage?: string;
  /** Milliseconds between streamed chunks. */
  tokenDelayMs?: number;
  /** Send the headers, then nothing: the first token never comes. */
  hang?: boolean;
  /** Streamed only: after this many chunks, destroy the connection (a provider failing mid-stream). */
  failAfterChunks?: number;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface ChatMessage {
  role: string;
  content: string | Array<{ type: string; text?: string }>;
}

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: ChatMessage[];
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    temperature?: number;
    max_tokens?: number;
    max_completion_tokens?: number;
    top_p?: number;
    [key: string]: unknown;
  };
  /** True when the client closed the connection before the answer was complete. */
  aborted: boolean;
  /** True once the answer was sent completely. */
  completed: boolean;
}

/** The text of a message, whether content is a string or a list of parts. */
export function textOf(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => part.text ?? '').join('');
}

export interface FakeOpenAiServer {
  /** Base URL including `/v1`, e.g. http://127.0.0.1:40123/v1 */
  baseUrl: string;
  /** Base URL without `/v1` (as Ollama users write it). */
  origin: string;
  requests: RecordedRequest[];
  /** The behaviour for requests with no queued behaviour. */
  setDefault(behaviour: FakeBehaviour): void;
  /** Behaviours used by the next requests, one each, in order. */
  enqueue(...behaviours: FakeBehaviour[]): void;
  /** Resolves when at least `count` requests have arrived in total. */
  waitForRequests(count: number): Promise<void>;
  /** Resolves when the request at `index` has been aborted by its client. */
  waitForAbort(index: number): Promise<void>;
  /** Forgets recorded requests and queued behaviours. */
  reset(): void;
  close(): Promise<void>;
}

function lastUserText(request: RecordedRequest): string {
  const users = request.body.messages.filter((message) => message.role === 'user');
  const last = users.at(-1);
  return last ? textOf(last) : '';
}

function wait(milliseconds: number, signal: { closed: boolean }): Promise<void> {
  if (milliseconds <= 0 || signal.closed) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

export async function startFakeOpenAiServer(options: { port?: number } = {}): Promise<FakeOpenAiServer> {
  let defaultBehaviour: FakeBehaviour = {};
  let queue: FakeBehaviour[] = [];
  const requests: RecordedRequest[] = [];
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

  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      if (!/\/chat\/completions$/.test(incoming.url ?? '') || incoming.method !== 'POST') {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      let body: RecordedRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad json' } }));
        return;
      }
      const recorded: RecordedRequest = {
        path: incoming.url ?? '',
        authorization: incoming.headers.authorization,
        body,
        aborted: false,
        completed: false,
      };
      requests.push(recorded);
      const connection = { closed: false, brokenOnPurpose: false };
      response.on('close', () => {
        connection.closed = true;
        if (!recorded.completed && !connection.brokenOnPurpose) recorded.aborted = true;
        notify();
      });
      notify();
      void answer(recorded, queue.shift() ?? defaultBehaviour, response, connection);
    });
  });

  async function answer(request: RecordedRequest, behaviour: FakeBehaviour, response: http.ServerResponse, connection: { closed: boolean; brokenOnPurpose: boolean }) {
    await wait(behaviour.delayMs ?? 0, connection);
    if (connection.closed) return;
    if (behaviour.status !== undefined) {
      response.writeHead(behaviour.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: behaviour.errorMessage ?? `failure ${behaviour.status}`, type: 'test_error' } }));
      request.completed = true;
      return;
    }
    const text = typeof behaviour.reply === 'function' ? behaviour.reply(request) : (behaviour.reply ?? `Reply to: ${lastUserText(request)}`);
    const usage = behaviour.usage ?? { prompt_tokens: 12, completion_tokens: text.split(' ').length };
    const created = Math.floor(Date.now() / 1000);
    const base = { id: 'chatcmpl-fake', created, model: request.body.model };
    const usageBody = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };

    if (!request.body.stream) {
      if (behaviour.hang) {
        response.writeHead(200, { 'content-type': 'application/json' });
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: usageBody,
        }),
      );
      request.completed = true;
      return;
    }

    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    response.flushHeaders();
    if (behaviour.hang) return;
    const send = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
    const words = text.split(/(?<= )/);
    let sent = 0;
    for (const word of words) {
      if (sent > 0) await wait(behaviour.tokenDelayMs ?? 0, connection);
      if (behaviour.failAfterChunks !== undefined && sent >= behaviour.failAfterChunks) {
        connection.brokenOnPurpose = true;
        response.destroy();
        return;
      }
      if (connection.closed) return;
      send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { ...(sent === 0 ? { role: 'assistant' } : {}), content: word }, finish_reason: null }] });
      sent += 1;
    }
    if (behaviour.failAfterChunks !== undefined && sent >= behaviour.failAfterChunks) {
      connection.brokenOnPurpose = true;
      response.destroy();
      return;
    }
    send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    if (request.body.stream_options?.include_usage) send({ ...base, object: 'chat.completion.chunk', choices: [], usage: usageBody });
    request.completed = true;
    response.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    baseUrl: `${origin}/v1`,
    origin,
    requests,
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
      queue = [];
      defaultBehaviour = {};
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

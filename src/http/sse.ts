import { once } from 'node:events';
import net from 'node:net';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { canReceive, type Receiver, type ReceivingIterator } from '../receiving-iterator.js';

/**
 * Server-sent events (WHATWG HTML, "Server-sent events"): the one writer
 * every stream of agentd goes through. Each event is written to the socket as
 * soon as its source yields it; the next one is not pulled before the client
 * has taken the last (backpressure: the writer waits for `drain`). A
 * `: keep-alive` comment goes out whenever nothing was written for
 * `keepAliveMs`, so proxies do not close an idle stream; one timer per
 * stream, pushed back by every write.
 */
export interface ServerSentEvent {
  /** Absent: a plain `message` event, as OpenAI's streams send them. */
  event?: string;
  data: unknown;
  /** The data is a one-line string sent as it is, not as JSON (OpenAI's closing `[DONE]`). */
  literal?: boolean;
  /** The event's `id`: a client that reconnects sends the last one as `Last-Event-ID` to resume after it. */
  id?: number;
}

export function formatEvent(event: ServerSentEvent): string {
  // JSON never contains a raw newline, so the data always fits one `data:` line.
  const data = event.literal === true ? String(event.data) : JSON.stringify(event.data);
  const id = event.id === undefined ? '' : `id: ${event.id}\n`;
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}${id}data: ${data}\n\n`;
}

const keepAliveComment = ': keep-alive\n\n';

/**
 * Writes `text` to the event stream's response. Once the response's first
 * write has sent the headers, Node frames every further `write` of a chunked
 * body as four socket writes (the length, a CRLF, the text, a CRLF) under a
 * cork released on the next tick: per word of every open stream, four
 * buffered writes and the objects that carry them. The stream owns the
 * response (hijacked), so it frames each chunk itself and makes one socket
 * write. The first write, an empty text (a chunk of length 0 would end the
 * body), a body that is not chunked (an HTTP/1.0 client), a response with no
 * connection of its own (one injected in tests) and one already ended or cut
 * go through Node as usual. Returns false when the caller must wait for
 * `drain` on the emitter `drainOf` gives.
 */
function writerOf(response: ServerResponse): { write(text: string): boolean; drainOf(): NodeJS.EventEmitter } {
  /** The response's first write, which sends its headers, was made. */
  let started = false;
  let direct = false;
  return {
    write(text) {
      const socket = response.socket;
      if (
        !started ||
        text === '' ||
        !response.chunkedEncoding ||
        !(socket instanceof net.Socket) ||
        socket.destroyed ||
        response.writableEnded
      ) {
        started = true;
        direct = false;
        return response.write(text);
      }
      direct = true;
      return socket.write(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
    },
    // The socket's own drain for a direct write: the response emits one only for the writes it made.
    drainOf: () => (direct && response.socket !== null ? response.socket : response),
  };
}

export interface EventStreamOptions<Item = ServerSentEvent> {
  keepAliveMs: number;
  /** Called once if the client disconnects before the stream ended. */
  onClientGone: () => void;
  /** Events written before the first item of `events`. */
  opening?: ServerSentEvent[];
  /**
   * The event of each item, when the items are not events already: a mapping
   * here, rather than an async generator between source and writer, keeps
   * each waiting stream one level of pending promises shallower.
   */
  frame?: (item: Item) => ServerSentEvent;
}

/**
 * Answers the request with `events` as text/event-stream, keeping the headers
 * already set on `reply`, and resolves when the stream has ended. The response
 * is written here, outside Fastify's reply cycle (`hijack`), event by event.
 *
 * The source is read with `next().then(…)` on handlers made once per stream,
 * not with `for await`: every await would make a new pair of closures and a
 * context that a stream waiting for its next word holds until it comes. A
 * source that can `receive` is handed those handlers instead, and a waiting
 * stream then holds no promise at all.
 * As with `for await`, a source that fails is not closed (it ended itself),
 * and one left because the client went away is closed with `return`.
 */
export function sendEventStream<Item = ServerSentEvent>(
  reply: FastifyReply,
  events: AsyncIterable<Item>,
  options: EventStreamOptions<Item>,
): Promise<void> {
  const response = reply.raw;
  reply.hijack();
  response.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    // no-transform and X-Accel-Buffering: proxies (nginx and others) must pass events on as they come.
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });

  const writer = writerOf(response);
  let gone = false;
  response.once('close', () => {
    if (response.writableFinished) return;
    gone = true;
    options.onClientGone();
  });
  const keepAlive = setTimeout(function beat() {
    if (gone) return;
    writer.write(keepAliveComment);
    keepAlive.refresh();
  }, options.keepAliveMs);
  return new Promise<void>((resolve, reject) => {
    let source: AsyncIterator<Item>;
    /** How a source that can `receive` is read: no promise per event (src/receiving-iterator.ts). */
    let receiver: Receiver<IteratorResult<Item>> | null = null;
    /** Ends the response, once; false when even that threw (the stream has then failed). */
    const end = (): boolean => {
      clearTimeout(keepAlive);
      try {
        if (!gone) response.end();
        return true;
      } catch (error) {
        reject(error);
        return false;
      }
    };
    const finished = (): void => {
      if (end()) resolve();
    };
    const fail = (error: unknown): void => {
      if (end()) reject(error);
    };
    /** Closes the source (its `return` cleans up after it), then `closed`, or `failed` when closing threw. */
    const closeSource = (closed: () => void, failed: (error: unknown) => void): void => {
      try {
        Promise.resolve(source.return?.()).then(closed, failed);
      } catch (error) {
        failed(error);
      }
    };
    /** As with a `for await` body that throws: the source is closed, and the error is the stream's. */
    const failClosing = (error: unknown): void => {
      const failed = () => fail(error);
      closeSource(failed, failed);
    };
    /** Leaves the source because the client went away, then ends the response. */
    const leave = (): void => closeSource(finished, fail);
    const pull = (): void => {
      let next: Promise<IteratorResult<Item>>;
      try {
        if (receiver !== null) {
          (source as ReceivingIterator<Item>).receive(receiver);
          return;
        }
        next = source.next();
      } catch (error) {
        fail(error);
        return;
      }
      next.then(written, fail);
    };
    /** Never throws (its promise is not awaited): a failure to format or write fails the stream. */
    const written = (result: IteratorResult<Item>): void => {
      if (result.done === true) return finished();
      if (gone) return leave();
      try {
        const item = result.value;
        const text = formatEvent(options.frame === undefined ? (item as ServerSentEvent) : options.frame(item));
        // Awaited only under backpressure: an open stream waiting for its next word holds as little as it can.
        if (!writer.write(text)) {
          Promise.race([once(writer.drainOf(), 'drain'), once(response, 'close')]).then(afterWrite, failClosing);
          return;
        }
      } catch (error) {
        failClosing(error);
        return;
      }
      afterWrite();
    };
    const afterWrite = (): void => {
      keepAlive.refresh();
      if (gone) leave();
      else pull();
    };
    try {
      for (const event of options.opening ?? []) writer.write(formatEvent(event));
      source = events[Symbol.asyncIterator]();
      if (canReceive(source)) receiver = { received: written, failed: fail };
    } catch (error) {
      fail(error);
      return;
    }
    pull();
  });
}

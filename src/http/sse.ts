import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Server-sent events (WHATWG HTML, "Server-sent events"): the one writer every
 * stream of agentd goes through. Events are pulled from their source only as
 * fast as the client reads them (a Readable piped into the socket), and a
 * `: keep-alive` comment goes out whenever the source has been silent for
 * `keepAliveMs`, so proxies do not close an idle stream.
 */
export interface ServerSentEvent {
  event: string;
  data: unknown;
}

export function formatEvent(event: ServerSentEvent): string {
  // JSON never contains a raw newline, so the data always fits one `data:` line.
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

const keepAliveComment = ': keep-alive\n\n';

async function* frames(events: AsyncIterable<ServerSentEvent>, keepAliveMs: number): AsyncGenerator<string, void, undefined> {
  const iterator = events[Symbol.asyncIterator]();
  try {
    let pending = iterator.next();
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const silence = new Promise<'silent'>((resolve) => {
        timer = setTimeout(() => resolve('silent'), keepAliveMs);
      });
      const result = await Promise.race([pending, silence]);
      clearTimeout(timer);
      if (result === 'silent') {
        yield keepAliveComment;
        continue;
      }
      if (result.done) return;
      yield formatEvent(result.value);
      pending = iterator.next();
    }
  } finally {
    // Reached early when the client went away: let the source end itself (and clean up) too.
    await iterator.return?.();
  }
}

export interface EventStreamOptions {
  keepAliveMs: number;
  /** Called once if the client disconnects before the stream ended. */
  onClientGone: () => void;
}

/** Answers the request with `events` as text/event-stream; headers set on `reply` before this are kept. */
export function sendEventStream(reply: FastifyReply, events: AsyncIterable<ServerSentEvent>, options: EventStreamOptions): FastifyReply {
  const body = Readable.from(frames(events, options.keepAliveMs), { objectMode: false });
  reply.raw.once('close', () => {
    if (reply.raw.writableFinished) return;
    options.onClientGone();
    body.destroy();
  });
  return reply
    .status(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    // no-transform and X-Accel-Buffering: proxies (nginx and others) must pass events on as they come.
    .header('cache-control', 'no-cache, no-transform')
    .header('x-accel-buffering', 'no')
    .send(body);
}

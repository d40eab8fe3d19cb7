import type http from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

function decoded(message: Readable, contentEncoding: string | undefined): NodeJS.ReadableStream {
  // Nothing asks for compression, but a server may compress anyway; the global fetch would decode it.
  switch (contentEncoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return message.pipe(zlib.createGunzip());
    case 'deflate':
      return message.pipe(zlib.createInflate());
    case 'br':
      return message.pipe(zlib.createBrotliDecompress());
    default:
      return message;
  }
}

/**
 * A response body as a web stream that reads from the socket only as fast as
 * it is consumed: Server-Sent Events arrive as they are sent, and a reader
 * that stops early (a size cap) leaves the rest unread.
 */
export function responseBody(
  message: http.IncomingMessage,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  return bodyStream(message, message.headers['content-encoding'], () => message.complete, signal);
}

/**
 * The same for any readable carrying a body: an HTTP/2 stream, whose body is
 * complete when it has ended.
 */
export function bodyStream(
  message: Readable,
  contentEncoding: string | undefined,
  complete: () => boolean,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  const source = decoded(message, contentEncoding);
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // Calls on a stream the reader has already cancelled throw; there is nobody left to tell.
      const settle = (settleWith: () => void) => {
        try {
          settleWith();
        } catch {
          // Already closed, errored or cancelled.
        }
      };
      const fail = (error: unknown) => settle(() => controller.error(signal?.aborted ? signal.reason : error));
      source.on('data', (chunk: Buffer) => {
        // Data already in flight when the reader cancelled has nowhere to go.
        if (cancelled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) source.pause();
      });
      const terminated = () => new TypeError('terminated', { cause: new Error('other side closed') });
      // An HTTP/2 stream reset without an error code ends like a whole one: `complete` tells them apart.
      source.once('end', () => (complete() ? settle(() => controller.close()) : fail(terminated())));
      source.once('error', fail);
      if (source !== message) message.once('error', fail);
      message.once('close', () => {
        if (!complete()) fail(terminated());
      });
    },
    pull() {
      source.resume();
    },
    cancel() {
      cancelled = true;
      message.destroy();
    },
  });
}

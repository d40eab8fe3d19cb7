import type http from 'node:http';
import zlib from 'node:zlib';

function decoded(message: http.IncomingMessage): NodeJS.ReadableStream {
  // Nothing asks for compression, but a server may compress anyway; the global fetch would decode it.
  switch (message.headers['content-encoding']?.trim().toLowerCase()) {
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
  const source = decoded(message);
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
      source.once('end', () => settle(() => controller.close()));
      source.once('error', fail);
      if (source !== message) message.once('error', fail);
      message.once('close', () => {
        if (!message.complete) fail(new TypeError('terminated', { cause: new Error('other side closed') }));
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

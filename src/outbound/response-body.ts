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

/** Where a body's chunks, its end and its failure go once it is read. */
export interface BodyListener {
  data(chunk: Buffer): void;
  /** The whole body arrived. */
  end(): void;
  /** The body broke off (or its request was aborted: then the signal's reason). */
  error(error: unknown): void;
}

/** A body read through `claimBody` instead of its web stream. */
export interface ClaimedBody {
  /** Backpressure: no more chunks until `resume`. */
  pause(): void;
  resume(): void;
  /** Stops reading: the rest is left unread, and the connection or HTTP/2 stream is let go. */
  cancel(): void;
}

const claims = new WeakMap<ReadableStream<Uint8Array>, (listener: BodyListener) => ClaimedBody | null>();

/**
 * The body of a response made by `bodyStream`, read as events instead of
 * through its web stream: for a reader that holds many bodies open at once (a
 * streamed model answer per open stream), a web stream's read costs several
 * promises per chunk, and a waiting reader holds them until the next one.
 * Null when the body is not such a stream, or is already being read.
 */
export function claimBody(body: ReadableStream<Uint8Array>, listener: BodyListener): ClaimedBody | null {
  return claims.get(body)?.(listener) ?? null;
}

/**
 * The same for any readable carrying a body: an HTTP/2 stream, whose body is
 * complete when it has ended. Nothing is read before the first read of the
 * web stream (or `claimBody`); a failure before then is kept for it.
 */
export function bodyStream(
  message: Readable,
  contentEncoding: string | undefined,
  complete: () => boolean,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  const source = decoded(message, contentEncoding);
  let cancelled = false;
  let reader: BodyListener | null = null;
  let claimed = false;
  /** The body's end or failure, once it came: told to its reader once. */
  let outcome: { failed: false } | { failed: true; error: unknown } | null = null;
  const settle = (settled: NonNullable<typeof outcome>) => {
    if (outcome !== null) return;
    outcome = settled;
    if (reader !== null) tell(reader, settled);
  };
  const tell = (listener: BodyListener, settled: NonNullable<typeof outcome>) =>
    settled.failed ? listener.error(settled.error) : listener.end();
  const fail = (error: unknown) => settle({ failed: true, error: signal?.aborted ? signal.reason : error });
  const terminated = () => new TypeError('terminated', { cause: new Error('other side closed') });
  // Listened to at once: a readable's 'error' with no listener would end the process.
  source.once('error', fail);
  if (source !== message) message.once('error', fail);
  message.once('close', () => {
    if (!complete()) fail(terminated());
  });
  const read = (listener: BodyListener) => {
    reader = listener;
    if (outcome !== null) return tell(listener, outcome);
    source.on('data', (chunk: Buffer) => {
      // Data already in flight when the reader cancelled has nowhere to go.
      if (!cancelled) listener.data(chunk);
    });
    // An HTTP/2 stream reset without an error code ends like a whole one: `complete` tells them apart.
    source.once('end', () => (complete() ? settle({ failed: false }) : fail(terminated())));
  };
  const cancel = () => {
    cancelled = true;
    message.destroy();
  };
  const web = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (claimed) {
          controller.error(new TypeError('The body is read elsewhere.'));
          return;
        }
        if (reader === null) {
          // Calls on a stream the reader has already cancelled throw; there is nobody left to tell.
          const quietly = (call: () => void) => {
            try {
              call();
            } catch {
              // Already closed, errored or cancelled.
            }
          };
          read({
            data: (chunk) => {
              controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
              if ((controller.desiredSize ?? 1) <= 0) source.pause();
            },
            end: () => quietly(() => controller.close()),
            error: (error) => quietly(() => controller.error(error)),
          });
        }
        source.resume();
      },
      cancel,
    },
    // Pulled only when read: a body that is claimed instead is never read here.
    { highWaterMark: 0 },
  );
  claims.set(web, (listener) => {
    if (reader !== null || claimed || web.locked) return null;
    claimed = true;
    read(listener);
    return { pause: () => source.pause(), resume: () => source.resume(), cancel };
  });
  return web;
}

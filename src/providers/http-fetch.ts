import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
// The body reader is the outbound client's: both read node:http answers as the global fetch would.
import { bodyStream, responseBody } from '../outbound/response-body.js';
import { Http2Sessions, type Http2SessionsOptions, type PooledSession } from './http2-sessions.js';

/**
 * The `fetch` the AI SDK's providers are given: the same contract as the
 * global one for what the SDK sends (a string or URL, a string or byte body,
 * plain headers, an abort signal), carried by `node:http` with keep-alive
 * connections.
 *
 * Why not the global fetch: on Node 20 it costs about three times the CPU of
 * `node:http` per request, and every message pays it before its first word
 * (bench/README.md, message-overhead). Anything this does not carry itself (a
 * Request object, a streamed or form body, a redirect to follow) goes to the
 * global fetch, so behaviour never differs, only cost.
 */

const redirects = new Set([301, 302, 303, 307, 308]);
const withoutBody = new Set([101, 204, 205, 304]);

function headersOf(init: RequestInit | undefined, body: string | Uint8Array | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  const given = init?.headers;
  if (isPlainRecord(given)) {
    // The SDK's transport gives a plain object of lower-case names: taken as it is, without a web Headers.
    // Values trimmed of surrounding whitespace, as Headers does.
    for (const name in given) {
      const value = given[name];
      if (value !== undefined) headers[name.toLowerCase()] = String(value).replace(surroundingWhitespace, '');
    }
  } else {
    new Headers(given).forEach((value, name) => {
      headers[name] = value;
    });
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return headers;
}

const surroundingWhitespace = /^[\t\n\r ]+|[\t\n\r ]+$/g;

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** Headers HTTP/2 forbids (RFC 9113, 8.2.2) or carries as pseudo-headers. */
const notForHttp2 = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'host',
  'te',
]);
/** Failures before any answer that say the server did not take the stream: it is sent again on another connection. */
const retriedHttp2Codes = new Set([
  'ERR_HTTP2_GOAWAY_SESSION',
  'ERR_HTTP2_INVALID_SESSION',
  'ERR_HTTP2_STREAM_CANCEL',
  'ERR_HTTP2_STREAM_REFUSED',
]);
const maximumHttp2Retries = 3;

function refusedStream(error: NodeJS.ErrnoException): boolean {
  return (
    retriedHttp2Codes.has(error.code ?? '') ||
    (error.code === 'ERR_HTTP2_STREAM_ERROR' && error.message.includes('NGHTTP2_REFUSED_STREAM'))
  );
}

export interface HttpFetchOptions extends Http2SessionsOptions {}

/** One call as this fetch carries it; `fallback` makes it with the global fetch instead. */
interface Call {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
  fallback: () => Promise<Response>;
}

/**
 * The Response for an answer's status and headers, as the global fetch gives
 * it: a redirect is the global fetch's to follow, and a bodiless status has
 * no body (`drain` discards what came). `body` is read only when there is one.
 */
function answerOf(
  call: Call,
  status: number,
  statusText: string,
  headers: Headers,
  drain: () => void,
  body: () => ReadableStream<Uint8Array>,
): Response | Promise<Response> {
  if (redirects.has(status) && headers.has('location')) {
    drain();
    return call.fallback();
  }
  if (withoutBody.has(status)) {
    drain();
    return new Response(null, { status, statusText, headers });
  }
  return new Response(body(), { status, statusText, headers });
}

/** A provider `fetch` with its own connection pools (`httpFetch` is the process's). */
export function createHttpFetch(options: HttpFetchOptions = {}): typeof fetch & { close(): void } {
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true, ...(options.ca !== undefined ? { ca: options.ca } : {}) }),
  };
  const sessions = new Http2Sessions(options);

  function viaHttp1(call: Call): Promise<Response> {
    const { url, signal } = call;
    return new Promise<Response>((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request(url, {
        method: call.method,
        headers: call.headers,
        agent: agents[url.protocol as 'http:' | 'https:'],
        ...(signal ? { signal } : {}),
      });
      request.once('error', (error) => {
        // The global fetch's shapes: the signal's reason when aborted, else "fetch failed" with the cause.
        if (signal?.aborted) reject(signal.reason);
        else reject(new TypeError('fetch failed', { cause: error }));
      });
      request.once('response', (response) => {
        const headers = new Headers();
        for (let index = 0; index < response.rawHeaders.length; index += 2) {
          headers.append(response.rawHeaders[index]!, response.rawHeaders[index + 1]!);
        }
        resolve(
          answerOf(
            call,
            response.statusCode ?? 0,
            response.statusMessage ?? '',
            headers,
            () => response.resume(),
            () => responseBody(response, signal),
          ),
        );
      });
      request.end(call.body);
    });
  }

  function viaHttp2(pooled: PooledSession, call: Call): Promise<Response> {
    const { url, signal } = call;
    const outgoing: http2.OutgoingHttpHeaders = { ':method': call.method, ':path': `${url.pathname}${url.search}` };
    for (const [name, value] of Object.entries(call.headers)) {
      if (!notForHttp2.has(name)) outgoing[name] = value;
    }
    return new Promise<Response>((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      try {
        stream = pooled.session.request(outgoing, {
          endStream: call.body === undefined,
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        // The session closed between being chosen and being used.
        sessions.release(pooled);
        reject(error);
        return;
      }
      let answered = false;
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (answered) return; // the body's reader reports it
        if (signal?.aborted) reject(signal.reason);
        else reject(error);
      });
      stream.once('close', () => {
        sessions.release(pooled);
        if (answered) return;
        // Closed with no answer and no error: the connection ended under it (Node closes its streams with
        // CANCEL, which is no error), or the server refused the stream. A promise left pending here would
        // never settle, whatever the signal did later.
        if (signal?.aborted) reject(signal.reason);
        else if (stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM || stream.id === undefined) {
          reject(Object.assign(new Error('the server did not take the stream'), { code: 'ERR_HTTP2_STREAM_REFUSED' }));
        } else reject(new Error(`the stream closed before an answer (code ${stream.rstCode})`));
      });
      stream.once('response', (received) => {
        answered = true;
        const headers = new Headers();
        for (const [name, value] of Object.entries(received)) {
          if (name.startsWith(':') || value === undefined) continue;
          for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
        }
        // A stream the server resets without an error code also ends; with a length announced, a short body is
        // known for cut off (node:http's `complete` tells the same of HTTP/1.1).
        const announced = headers.has('content-length') ? Number(headers.get('content-length')) : undefined;
        let bodyBytes = 0;
        if (announced !== undefined) stream.on('data', (chunk: Buffer) => (bodyBytes += chunk.byteLength));
        // Ended by the server (not cut with CANCEL when the connection closed under it), and as long as announced.
        const complete = () =>
          stream.readableEnded &&
          (stream.rstCode === undefined || stream.rstCode === http2.constants.NGHTTP2_NO_ERROR) &&
          (announced === undefined || call.method === 'HEAD' || bodyBytes === announced);
        resolve(
          answerOf(
            call,
            Number(received[':status'] ?? 0),
            '',
            headers,
            () => stream.resume(),
            () => bodyStream(stream, headers.get('content-encoding') ?? undefined, complete, signal),
          ),
        );
      });
      if (call.body !== undefined) stream.end(call.body);
    });
  }

  async function viaHttps(call: Call): Promise<Response> {
    const { signal } = call;
    for (let retries = 0; ; retries += 1) {
      let pooled: PooledSession | 'http/1.1';
      try {
        pooled = await sessions.acquire(call.url, signal);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        throw new TypeError('fetch failed', { cause: error });
      }
      if (pooled === 'http/1.1') return viaHttp1(call);
      try {
        return await viaHttp2(pooled, call);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (!refusedStream(error as NodeJS.ErrnoException) || retries >= maximumHttp2Retries) {
          throw new TypeError('fetch failed', { cause: error });
        }
      }
    }
  }

  const fetchWith = ((input, init) => {
    const fallback = () => fetch(input, init);
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null;
    const body = init?.body ?? undefined;
    const carried = body === undefined || typeof body === 'string' || body instanceof Uint8Array;
    if (url === null || !carried || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fallback();
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const call: Call = { url, method: init?.method ?? 'GET', headers: headersOf(init, body), body, signal, fallback };
    return url.protocol === 'https:' ? viaHttps(call) : viaHttp1(call);
  }) as typeof fetch & { close(): void };
  fetchWith.close = () => {
    sessions.close();
    agents['http:'].destroy();
    agents['https:'].destroy();
  };
  return fetchWith;
}

export const httpFetch: typeof fetch = createHttpFetch();

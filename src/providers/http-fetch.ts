import http from 'node:http';
import https from 'node:https';
// The body reader is the outbound client's: both read node:http answers as the global fetch would.
import { responseBody } from '../outbound/response-body.js';

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

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};
const redirects = new Set([301, 302, 303, 307, 308]);
const withoutBody = new Set([101, 204, 205, 304]);

function headersOf(init: RequestInit | undefined, body: string | Uint8Array | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => {
    headers[name] = value;
  });
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return headers;
}

export const httpFetch: typeof fetch = (input, init) => {
  const fallback = () => fetch(input, init);
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null;
  const body = init?.body ?? undefined;
  const carried = body === undefined || typeof body === 'string' || body instanceof Uint8Array;
  if (url === null || !carried || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fallback();
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);

  return new Promise<Response>((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: init?.method ?? 'GET',
      headers: headersOf(init, body),
      agent: agents[url.protocol as 'http:' | 'https:'],
      ...(signal ? { signal } : {}),
    });
    request.once('error', (error) => {
      // The global fetch's shapes: the signal's reason when aborted, else "fetch failed" with the cause.
      if (signal?.aborted) reject(signal.reason);
      else reject(new TypeError('fetch failed', { cause: error }));
    });
    request.once('response', (response) => {
      const status = response.statusCode ?? 0;
      if (redirects.has(status) && response.headers.location !== undefined) {
        response.resume();
        resolve(fallback());
        return;
      }
      const headers = new Headers();
      for (let index = 0; index < response.rawHeaders.length; index += 2) {
        headers.append(response.rawHeaders[index]!, response.rawHeaders[index + 1]!);
      }
      if (withoutBody.has(status)) response.resume();
      resolve(
        new Response(withoutBody.has(status) ? null : responseBody(response, signal), {
          status,
          statusText: response.statusMessage ?? '',
          headers,
        }),
      );
    });
    request.end(body);
  });
};

/**
 * How a request changes when it follows a redirect, after the Fetch standard
 * (https://fetch.spec.whatwg.org/#http-redirect-fetch), so a client that
 * follows redirects itself behaves as the global fetch would.
 */

export const redirectStatuses: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** At most this many redirects per call: what browsers allow is 20; an agent's calls need far fewer. */
export const maximumRedirects = 5;

export interface RedirectableRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: Uint8Array | null;
}

const bodyHeaders = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
/** Credentials meant for one origin must not travel to another one a redirect names. */
const originBoundHeaders = ['authorization', 'proxy-authorization', 'cookie'];

/**
 * The next request after `status` with `location`, or null when the response
 * is not a redirect to follow. Throws a TypeError when the location is not a
 * URL at all.
 */
export function redirectedRequest(
  request: RedirectableRequest,
  status: number,
  location: string | null,
): RedirectableRequest | null {
  if (!redirectStatuses.has(status) || location === null) return null;
  const url = new URL(location, request.url);
  const headers = new Headers(request.headers);
  let { method, body } = request;
  const becomesGet =
    ((status === 301 || status === 302) && method === 'POST') ||
    (status === 303 && method !== 'GET' && method !== 'HEAD');
  if (becomesGet) {
    method = 'GET';
    body = null;
    for (const name of bodyHeaders) headers.delete(name);
  }
  if (url.origin !== request.url.origin) {
    for (const name of originBoundHeaders) headers.delete(name);
  }
  return { url, method, headers, body };
}

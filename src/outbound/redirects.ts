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
/**
 * The only headers a request carries to another origin (scheme, host and port)
 * than the one it was made for: they describe what is asked and in which form,
 * and hold nothing of the caller's. Any other header stays behind. Which
 * headers are credentials is not knowable here (an API key travels as
 * X-Api-Key, Private-Token, or any name an API chose), so rather than drop the
 * known secret ones, as the Fetch standard does with Authorization, only
 * those known to be harmless go on, for every caller of the outbound client.
 * The protocol versions of A2A and MCP are here so a card or server that moved
 * is still asked in the version the client speaks.
 */
const crossOriginHeaders: ReadonlySet<string> = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-encoding',
  'content-language',
  'content-length',
  'content-type',
  'pragma',
  'user-agent',
  'a2a-version',
  'mcp-protocol-version',
]);

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
    for (const name of [...headers.keys()]) {
      if (!crossOriginHeaders.has(name)) headers.delete(name);
    }
  }
  return { url, method, headers, body };
}

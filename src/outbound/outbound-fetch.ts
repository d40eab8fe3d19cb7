import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { FetchFunction } from '../plugins/plugin.js';
import { anyAddress, publicAddressesOnly, type AddressPolicy } from './address-policy.js';
import { guardedLookup, systemResolver, type HostResolver } from './guarded-lookup.js';
import { OutboundRefusedError } from './outbound-refused-error.js';
import { maximumRedirects, redirectStatuses, redirectedRequest, type RedirectableRequest } from './redirects.js';
import { requestBody } from './request-body.js';
import { responseBody } from './response-body.js';

export interface OutboundOptions {
  /** AGENTD_OUTBOUND_ALLOW_PRIVATE: let calls reach loopback, private and link-local addresses. */
  allowPrivateAddresses: boolean;
  /**
   * Replaces the policy `allowPrivateAddresses` chooses. Production never sets
   * it; tests use it to count one loopback address as public and another not.
   */
  addressPolicy?: AddressPolicy;
  /** Replaces the system resolver (tests give names that resolve to chosen addresses). */
  resolveHost?: HostResolver;
}

/** Headers that describe the connection or the framing, which this client sets itself. */
const managedHeaders = [
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
];
const withoutBody = new Set([101, 204, 205, 304]);
/** Connections a keep-alive pool holds per host and port are few; past this many stale ones, something else is wrong. */
const maximumStaleRetries = 3;

function targetUrl(input: string | URL): URL {
  const url = new URL(input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRefusedError(`a ${url.protocol} URL`, 'only http: and https: URLs are allowed');
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('URLs with credentials are not allowed; send an Authorization header instead');
  }
  return url;
}

function outgoingHeaders(request: RedirectableRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'agentd' };
  request.headers.forEach((value, name) => {
    if (!managedHeaders.includes(name)) headers[name] = value;
  });
  if (request.body !== null) headers['content-length'] = String(request.body.byteLength);
  else if (request.method === 'POST' || request.method === 'PUT') headers['content-length'] = '0';
  return headers;
}

function responseHeaders(message: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (let index = 0; index < message.rawHeaders.length; index += 2) {
    headers.append(message.rawHeaders[index]!, message.rawHeaders[index + 1]!);
  }
  return headers;
}

/**
 * The one client for outgoing HTTP calls to addresses users give (plugins,
 * MCP servers, documents, webhooks): fetch-compatible, carried by node:http,
 * refusing non-public addresses where the connection is made (see
 * guarded-lookup.ts) and following redirects itself so every hop is checked.
 * Build it once at start-up: it holds keep-alive connection pools.
 */
export function createOutboundFetch(options: OutboundOptions): FetchFunction {
  const policy = options.addressPolicy ?? (options.allowPrivateAddresses ? anyAddress : publicAddressesOnly);
  const lookup = guardedLookup(options.resolveHost ?? systemResolver, policy);
  // Pools of this client only: a connection opened under a looser policy is never reused under a stricter one.
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };

  function exchange(
    request: RedirectableRequest,
    signal: AbortSignal | undefined,
    staleRetries = 0,
  ): Promise<http.IncomingMessage> {
    const { url } = request;
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // node:net connects to a literal address without calling `lookup`, so it is judged here.
    if (net.isIP(hostname) !== 0) {
      const refusal = policy(hostname);
      if (refusal !== null) return Promise.reject(new OutboundRefusedError(url.hostname, refusal));
    }
    const protocol = url.protocol as 'http:' | 'https:';
    return new Promise((resolve, reject) => {
      const outgoing = (protocol === 'https:' ? https : http).request({
        protocol,
        hostname,
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: outgoingHeaders(request),
        agent: agents[protocol],
        lookup,
        ...(signal ? { signal } : {}),
      });
      outgoing.once('error', (error: NodeJS.ErrnoException) => {
        // A pooled connection the server closed while it sat idle fails as soon as it is written to, before
        // any answer: the server had let go of it, so the request is sent again on a fresh connection (the
        // pattern node:http's documentation gives for `reusedSocket`). The failed connection has left the
        // pool; the bound covers a pool of several connections the server dropped at once.
        const stale = outgoing.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
        if (stale && !signal?.aborted && staleRetries < maximumStaleRetries) {
          resolve(exchange(request, signal, staleRetries + 1));
          return;
        }
        // The global fetch's shapes: the signal's reason when aborted, else "fetch failed" with the cause.
        if (signal?.aborted) reject(signal.reason);
        else if (error instanceof OutboundRefusedError) reject(error);
        else reject(new TypeError('fetch failed', { cause: error }));
      });
      outgoing.once('response', resolve);
      outgoing.end(request.body ?? undefined);
    });
  }

  return async (input, init = {}) => {
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const mode = init.redirect ?? 'follow';
    const method = (init.method ?? 'GET').toUpperCase();
    const body = await requestBody(init.body);
    if (body.bytes !== null && (method === 'GET' || method === 'HEAD')) {
      throw new TypeError(`a ${method} request cannot have a body`);
    }
    const headers = new Headers(init.headers);
    if (body.contentType !== null && !headers.has('content-type')) headers.set('content-type', body.contentType);
    let request: RedirectableRequest = { url: targetUrl(input), method, headers, body: body.bytes };

    for (let redirects = 0; ; redirects += 1) {
      const message = await exchange(request, signal);
      const status = message.statusCode ?? 0;
      const location = message.headers.location ?? null;
      if (mode !== 'manual' && redirectStatuses.has(status) && location !== null) {
        // The redirect's own body is never read; closing beats draining whatever a server sends.
        message.destroy();
        if (mode === 'error') {
          throw new OutboundRefusedError(
            request.url.host,
            `it answered with a redirect (${status}) and redirects are not followed`,
          );
        }
        if (redirects === maximumRedirects) {
          throw new OutboundRefusedError(request.url.host, `more than ${maximumRedirects} redirects`);
        }
        const next = redirectedRequest(request, status, location)!;
        targetUrl(next.url);
        request = next;
        continue;
      }
      if (status < 200 || status > 599) {
        message.destroy();
        throw new TypeError('fetch failed', { cause: new Error(`unusable status ${status}`) });
      }
      const empty = withoutBody.has(status) || request.method === 'HEAD';
      if (empty) message.resume();
      const response = new Response(empty ? null : responseBody(message, signal), {
        status,
        statusText: message.statusMessage ?? '',
        headers: responseHeaders(message),
      });
      // A constructed Response has no URL; callers read the final one (after redirects) as with the global fetch.
      Object.defineProperty(response, 'url', { value: request.url.href });
      Object.defineProperty(response, 'redirected', { value: redirects > 0 });
      return response;
    }
  };
}

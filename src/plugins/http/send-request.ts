import { OutboundRefusedError } from '../../outbound/outbound-refused-error.js';
import { maximumRedirects, redirectedRequest, type RedirectableRequest } from '../../outbound/redirects.js';
import { ToolError, type FetchFunction } from '../plugin.js';
import type { SecretMask } from '../redact-secrets.js';
import { isAllowedHost } from './allowed-hosts.js';
import { readCapped } from './capped-body.js';
import { readableText } from './readable-text.js';

/** What a tool that called an HTTP server gives the model, whatever the status. */
export interface HttpToolResult {
  status: number;
  /** Where the content came from, after redirects. */
  url: string;
  contentType: string | null;
  text: string;
  /** True when the body was longer than maxResponseBytes and only its start was read. */
  truncated: boolean;
}

export interface SendOptions {
  /** The SSRF-safe client (src/outbound/). */
  fetch: FetchFunction;
  timeoutMs: number;
  maxResponseBytes: number;
  abortSignal: AbortSignal;
  /** When set, every hop must go to one of these hosts. */
  allowedHosts?: readonly string[] | undefined;
  /**
   * Headers agentd adds itself to a request to this URL (credentials the
   * model never sees). Asked again at every hop, so a redirect to another
   * origin (scheme, host or port) never carries what was meant for the first one.
   */
  credentialsFor?: ((url: URL) => Readonly<Record<string, string>> | null) | undefined;
  /**
   * The plugin entry's secrets, for the cut at `maxResponseBytes`: the body is
   * read their length past it, so one that straddles the cut is masked whole.
   */
  secretMask?: SecretMask | undefined;
}

/** A readable reason for a failed connection; the global fetch's "fetch failed" says nothing. */
function unreachable(host: string, error: unknown): ToolError {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ToolError(`Could not find the host ${host} (DNS lookup failed).`);
    case 'ECONNREFUSED':
      return new ToolError(`${host} refused the connection.`);
    case 'ECONNRESET':
      return new ToolError(`${host} closed the connection.`);
    default:
      return new ToolError(`Could not reach ${host}${code ? ` (${code})` : ''}.`);
  }
}

function withCredentials(request: RedirectableRequest, options: SendOptions): Headers {
  const credentials = options.credentialsFor?.(request.url);
  if (!credentials) return request.headers;
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(credentials)) headers.set(name, value);
  return headers;
}

/**
 * Sends one request for a tool and reads its answer as text for the model,
 * with the caps of the http plugin: a time limit for the whole exchange,
 * redirects followed here (at most five, each hop held to `allowedHosts`),
 * and the body read up to `maxResponseBytes`. Any status is an answer the
 * model reads; what went wrong on the way is a ToolError.
 */
export async function sendRequest(first: RedirectableRequest, options: SendOptions): Promise<HttpToolResult> {
  const { allowedHosts, abortSignal, timeoutMs } = options;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([abortSignal, timeout]);
  let request = first;
  try {
    for (let redirects = 0; ; redirects += 1) {
      if (allowedHosts !== undefined && !isAllowedHost(request.url.hostname, allowedHosts)) {
        throw new ToolError(
          `${request.url.hostname} is not among the hosts this agent may fetch (${allowedHosts.join(', ')}).`,
        );
      }
      // The credentials are added to this hop's headers only: `request.headers` keeps what the caller gave,
      // which is what a redirect carries on.
      const response = await options.fetch(request.url, {
        method: request.method,
        headers: withCredentials(request, options),
        ...(request.body === null ? {} : { body: request.body }),
        redirect: 'manual',
        signal,
      });
      const next = redirectedRequest(request, response.status, response.headers.get('location'));
      if (next !== null) {
        await response.body?.cancel();
        if (redirects === maximumRedirects) throw new ToolError(`More than ${maximumRedirects} redirects.`);
        request = next;
        continue;
      }
      const contentType = response.headers.get('content-type');
      const margin = options.secretMask?.marginBytes ?? 0;
      const read = await readCapped(response.body, options.maxResponseBytes + margin);
      const truncated = read.truncated || read.bytes.byteLength > options.maxResponseBytes;
      return {
        status: response.status,
        url: request.url.href,
        ...readableText(contentType, read.bytes, truncated, options.maxResponseBytes, options.secretMask),
        truncated,
      };
    }
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (abortSignal.aborted) throw abortSignal.reason;
    if (timeout.aborted) throw new ToolError(`${request.url.host} did not answer within ${timeoutMs} ms.`);
    if (error instanceof OutboundRefusedError) throw new ToolError(`${error.message}.`);
    if (error instanceof TypeError && error.message === 'fetch failed') throw unreachable(request.url.host, error);
    throw error;
  }
}

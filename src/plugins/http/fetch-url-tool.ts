import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { OutboundRefusedError } from '../../outbound/outbound-refused-error.js';
import { maximumRedirects, redirectedRequest, type RedirectableRequest } from '../../outbound/redirects.js';
import { ToolError, type FetchFunction, type Tool } from '../plugin.js';
import { isAllowedHost } from './allowed-hosts.js';
import { readCapped } from './capped-body.js';
import type { HttpPluginConfig } from './config.js';
import { readableText } from './readable-text.js';

export const fetchUrlInputSchema = Type.Object(
  {
    url: Type.String({ maxLength: 4096, description: 'The absolute http:// or https:// URL to fetch.' }),
    method: Type.Optional(
      Type.Union([Type.Literal('GET'), Type.Literal('POST')], { description: 'GET (the default) or POST.' }),
    ),
    body: Type.Optional(
      Type.String({
        maxLength: 100_000,
        description: 'The request body, for POST only. Set its content-type in headers, e.g. application/json.',
      }),
    ),
    headers: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: Type.String(),
          description: 'Request headers as name/value pairs, e.g. {"accept": "application/json"}.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
type FetchUrlInput = Static<typeof fetchUrlInputSchema>;

export interface FetchUrlResult {
  status: number;
  /** Where the content came from, after redirects. */
  url: string;
  contentType: string | null;
  text: string;
  /** True when the body was longer than the plugin's maxResponseBytes and only its start was read. */
  truncated: boolean;
}

function parsedInput(input: unknown): FetchUrlInput & { target: URL } {
  if (!Value.Check(fetchUrlInputSchema, input)) {
    const first = Value.Errors(fetchUrlInputSchema, input).First();
    throw new ToolError(`Invalid arguments: ${first ? `${first.path || 'input'} ${first.message}` : 'not an object'}.`);
  }
  let target: URL;
  try {
    target = new URL(input.url);
  } catch {
    throw new ToolError('The url is not an absolute URL.');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new ToolError('Only http:// and https:// URLs can be fetched.');
  }
  if (input.body !== undefined && (input.method ?? 'GET') !== 'POST') {
    throw new ToolError('A body can only be sent with method POST.');
  }
  return { ...input, target };
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

export function fetchUrlTool(config: HttpPluginConfig, fetch: FetchFunction): Tool {
  const allowedHosts = config.allowedHosts;
  return {
    name: 'fetch_url',
    description:
      'Fetches a public web page or API over HTTP(S) and returns its status, final URL, content type and content ' +
      'as text (HTML reduced to readable text with links, JSON as compact JSON). Long content is cut off and ' +
      'marked truncated.',
    inputSchema: fetchUrlInputSchema,
    async execute(input, { abortSignal }): Promise<FetchUrlResult> {
      const { target, method = 'GET', body, headers = {} } = parsedInput(input);
      const timeout = AbortSignal.timeout(config.timeoutMs);
      const signal = AbortSignal.any([abortSignal, timeout]);
      let request: RedirectableRequest = {
        url: target,
        method,
        headers: new Headers(),
        body: body === undefined ? null : Buffer.from(body),
      };
      try {
        request.headers = new Headers(headers);
      } catch {
        throw new ToolError('A header name or value is not valid in HTTP.');
      }

      try {
        // Redirects are followed here rather than by `fetch` so that every hop is held to allowedHosts.
        for (let redirects = 0; ; redirects += 1) {
          if (allowedHosts !== undefined && !isAllowedHost(request.url.hostname, allowedHosts)) {
            throw new ToolError(
              `${request.url.hostname} is not among the hosts this agent may fetch (${allowedHosts.join(', ')}).`,
            );
          }
          const response = await fetch(request.url, {
            method: request.method,
            headers: request.headers,
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
          const { bytes, truncated } = await readCapped(response.body, config.maxResponseBytes);
          return {
            status: response.status,
            url: request.url.href,
            ...readableText(contentType, bytes, truncated),
            truncated,
          };
        }
      } catch (error) {
        if (error instanceof ToolError) throw error;
        if (abortSignal.aborted) throw abortSignal.reason;
        if (timeout.aborted) {
          throw new ToolError(`${request.url.host} did not answer within ${config.timeoutMs} ms.`);
        }
        if (error instanceof OutboundRefusedError) throw new ToolError(`${error.message}.`);
        if (error instanceof TypeError && error.message === 'fetch failed') throw unreachable(request.url.host, error);
        throw error;
      }
    },
  };
}

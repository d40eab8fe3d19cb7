import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ToolError, type FetchFunction, type Tool } from '../plugin.js';
import type { SecretMask } from '../redact-secrets.js';
import type { HttpPluginConfig } from './config.js';
import { isSafeMethod } from './safe-methods.js';
import { sendRequest, type HttpToolResult } from './send-request.js';

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

export type FetchUrlResult = HttpToolResult;

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

/**
 * `credentialsFor` gives the headers agentd adds to a request to a URL's
 * origin (the plugin's secret headers); the model neither sees nor sets them.
 * `secretMask` holds the entry's secrets, masked where the body is cut.
 */
export function fetchUrlTool(
  config: HttpPluginConfig,
  fetch: FetchFunction,
  credentialsFor?: (url: URL) => Readonly<Record<string, string>> | null,
  secretMask?: SecretMask,
): Tool {
  return {
    name: 'fetch_url',
    description:
      'Fetches a public web page or API over HTTP(S) and returns its status, final URL, content type and content ' +
      'as text (HTML reduced to readable text with links, JSON as compact JSON). Long content is cut off and ' +
      'marked truncated.',
    inputSchema: fetchUrlInputSchema,
    // A GET only reads; a POST may change something at the server. An input that is not what the schema says is
    // taken to have side effects (it is refused before anything is sent anyway).
    sideEffects: (input) => {
      const method = (input as { method?: unknown } | null)?.method ?? 'GET';
      return typeof method !== 'string' || !isSafeMethod(method);
    },
    async execute(input, { abortSignal }): Promise<FetchUrlResult> {
      const { target, method = 'GET', body, headers = {} } = parsedInput(input);
      let requestHeaders: Headers;
      try {
        requestHeaders = new Headers(headers);
      } catch {
        throw new ToolError('A header name or value is not valid in HTTP.');
      }
      return sendRequest(
        { url: target, method, headers: requestHeaders, body: body === undefined ? null : Buffer.from(body) },
        {
          fetch,
          timeoutMs: config.timeoutMs,
          maxResponseBytes: config.maxResponseBytes,
          abortSignal,
          allowedHosts: config.allowedHosts,
          credentialsFor,
          secretMask,
        },
      );
    },
  };
}

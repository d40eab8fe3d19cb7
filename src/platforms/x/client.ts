import type { ITwitterApiClientPlugin, TwitterApi, TwitterResponse } from 'twitter-api-v2';
import { attemptSignal } from '../../attempt-signal.js';
import { PlatformCredentialsRejected } from '../platform.js';
import type { XSecrets } from './settings.js';

/** X's own API, unless the operator points connectors elsewhere (AGENTD_X_API_URL). */
export const defaultXApiUrl = 'https://api.x.com';
/** Where twitter-api-v2 sends its requests; rewritten to the configured base. */
const libraryBase = 'https://api.x.com/';
/** One X call never waits longer than this. */
const requestTimeoutMs = 15_000;

/** A refusal by X, with its HTTP status and, for 429, when the window resets (epoch ms). */
export class XApiError extends Error {
  override readonly name = 'XApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly resetAt: number | null,
  ) {
    super(message);
  }
}

function credentialsOf(secrets: XSecrets) {
  if (secrets.userAccessToken !== undefined) return secrets.userAccessToken;
  const { appKey, appSecret, accessToken, accessSecret } = secrets;
  if (appKey !== undefined && appSecret !== undefined && accessToken !== undefined && accessSecret !== undefined) {
    return { appKey, appSecret, accessToken, accessSecret };
  }
  const missing = (['appKey', 'appSecret', 'accessToken', 'accessSecret'] as const).filter(
    (name) => secrets[name] === undefined,
  );
  throw new PlatformCredentialsRejected(
    `X has no user credentials: set secrets.userAccessToken, or the four OAuth 1.0a keys (missing ${missing.join(', ')}) on the x platform.`,
  );
}

/** What X says went wrong, from its problem body (v2: title and detail; older: errors[].message). */
function problemOf(body: unknown, status: number): string {
  const problem = body as { title?: unknown; detail?: unknown; errors?: Array<{ message?: unknown }> } | null;
  const parts = [problem?.title, problem?.detail, problem?.errors?.[0]?.message].filter(
    (part): part is string => typeof part === 'string' && part !== '',
  );
  const unique = [...new Set(parts)];
  return `X answered ${status}${unique.length > 0 ? `: ${unique.join(' — ').slice(0, 300)}` : ''}`;
}

/**
 * twitter-api-v2's requests (signed by it: OAuth 1.0a or the user token) are
 * sent with WHATWG fetch instead of its own https client: to the operator's
 * base URL, plain http included (a fake in tests), aborted with the
 * connector's signal. Errors are XApiError, without any secret.
 */
function fetchPlugin(apiBaseUrl: string, signal: AbortSignal): ITwitterApiClientPlugin {
  const base = apiBaseUrl.endsWith('/') ? apiBaseUrl : `${apiBaseUrl}/`;
  return {
    async onBeforeRequestConfig({ client, params }): Promise<TwitterResponse<unknown>> {
      if (params.url.startsWith(libraryBase)) params.url = base + params.url.slice(libraryBase.length);
      // The library's own signing (OAuth 1.0a over the final URL) and body encoding.
      const args = (
        client as unknown as {
          getHttpRequestArgs(request: typeof params): {
            url: URL;
            method: string;
            headers: Record<string, string>;
            body?: string | Buffer;
          };
        }
      ).getHttpRequestArgs(params);
      const attempt = attemptSignal(signal, requestTimeoutMs);
      let response: Response;
      let text: string;
      try {
        response = await fetch(args.url, {
          method: args.method,
          headers: args.headers,
          ...(args.body !== undefined ? { body: args.body } : {}),
          signal: attempt.signal,
        });
        text = await response.text();
      } finally {
        attempt.release();
      }
      let data: unknown = null;
      try {
        data = text === '' ? null : JSON.parse(text);
      } catch {
        data = null;
      }
      if (!response.ok) {
        const reset = Number(response.headers.get('x-rate-limit-reset'));
        throw new XApiError(
          response.status,
          problemOf(data, response.status),
          response.status === 429 && Number.isFinite(reset) && reset > 0 ? reset * 1000 : null,
        );
      }
      return { data, headers: Object.fromEntries(response.headers) };
    },
  };
}

/**
 * A user-context X client; throws PlatformCredentialsRejected when the secrets are incomplete. The library is
 * loaded with the first X connection, not at start-up.
 */
export async function createXClient(
  secrets: XSecrets,
  apiBaseUrl: string | undefined,
  signal: AbortSignal,
): Promise<TwitterApi> {
  const credentials = credentialsOf(secrets);
  const { TwitterApi } = await import('twitter-api-v2');
  const settings = { plugins: [fetchPlugin(apiBaseUrl ?? defaultXApiUrl, signal)] };
  return typeof credentials === 'string'
    ? new TwitterApi(credentials, settings)
    : new TwitterApi(credentials, settings);
}

/** 401 (and 403 on reading the account itself): X refuses these credentials. */
export function credentialsRejected(error: XApiError): PlatformCredentialsRejected {
  return new PlatformCredentialsRejected(
    `X rejected the credentials (${error.message}); set valid user-context secrets on the x platform.`,
  );
}

/** A fault described without any secret: X's own errors never carry them, and nothing else is added. */
export function describeXFault(error: unknown): string {
  if (error instanceof XApiError) return error.message;
  if (error instanceof Error && error.name === 'AbortError') return 'X did not answer in time';
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `X is unreachable: ${error instanceof Error ? error.message : String(error)}${cause}`;
}

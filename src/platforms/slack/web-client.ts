import type { Logger as SlackLogger, webApi } from '@slack/bolt';
import type { Logger } from 'pino';

/** Slack's own Web API address, used when the operator configured none. */
export const defaultSlackApiUrl = 'https://slack.com/api/';

/** Errors of `auth.test` (and any call) that mean the token itself is refused. */
const rejectedTokenErrors = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
]);

const importBolt = () => import('@slack/bolt');
let bolt: ReturnType<typeof importBolt> | undefined;

/** Bolt (with Express) takes about a second to load: only agents with a Slack platform pay for it, once. */
export function loadBolt(): ReturnType<typeof importBolt> {
  bolt ??= importBolt();
  return bolt;
}

/**
 * The Web API client's log lines go to ours. Its debug lines (request
 * bodies) are dropped: they may carry message text, and the client's own
 * warnings say enough.
 */
function slackLogger(logger: Logger): SlackLogger {
  let level = 'warn';
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (...messages: unknown[]) => logger.warn({ slack: messages.map(String).join(' ') }, 'slack web api'),
    error: (...messages: unknown[]) => logger.error({ slack: messages.map(String).join(' ') }, 'slack web api'),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level as ReturnType<SlackLogger['getLevel']>,
    setName: () => undefined,
  };
}

export async function createSlackWebClient(
  token: string,
  apiBaseUrl: string | undefined,
  logger: Logger,
): Promise<webApi.WebClient> {
  const { webApi } = await loadBolt();
  const base = apiBaseUrl ?? defaultSlackApiUrl;
  return new webApi.WebClient(token, {
    slackApiUrl: base.endsWith('/') ? base : `${base}/`,
    logger: slackLogger(logger),
    // A few quick retries for a reply; start's own failures are retried by the supervisor with its backoff.
    retryConfig: { retries: 2, factor: 2, minTimeout: 250, maxTimeout: 2_000 },
    timeout: 10_000,
    // A method name is never an absolute URL here: every call stays on the configured base.
    allowAbsoluteUrls: false,
  });
}

/** True when Slack refused the token (an `ok: false` with an auth error, or HTTP 401/403). */
export function isRejectedToken(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { code?: unknown; data?: { error?: unknown }; statusCode?: unknown };
  if (candidate.code === 'slack_webapi_platform_error') {
    return typeof candidate.data?.error === 'string' && rejectedTokenErrors.has(candidate.data.error);
  }
  if (candidate.code === 'slack_webapi_http_error') {
    return candidate.statusCode === 401 || candidate.statusCode === 403;
  }
  return false;
}

/** A short description of a Web API failure for logs and reasons: Slack's error code, never the request. */
export function describeSlackFailure(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'unknown error';
  const candidate = error as { code?: unknown; data?: { error?: unknown }; statusCode?: unknown; original?: unknown };
  if (candidate.code === 'slack_webapi_platform_error') return `Slack answered ${String(candidate.data?.error)}`;
  if (candidate.code === 'slack_webapi_http_error') return `Slack answered HTTP ${String(candidate.statusCode)}`;
  if (candidate.code === 'slack_webapi_rate_limited_error') return 'Slack rate-limited the call';
  if (candidate.code === 'slack_webapi_request_error') {
    const original = candidate.original as { code?: unknown; message?: unknown } | undefined;
    return `Slack could not be reached (${String(original?.code ?? original?.message ?? 'network error')})`;
  }
  return error instanceof Error ? error.name : 'unknown error';
}

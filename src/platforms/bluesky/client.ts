import type { AtpAgent, XRPCError } from '@atproto/api';
import { attemptSignal } from '../../attempt-signal.js';
import { OutboundRefusedError } from '../../outbound/outbound-refused-error.js';
import { PlatformCredentialsRejected, type PlatformContext } from '../platform.js';
import type { BlueskySecrets, BlueskySettings } from './settings.js';

/** Bluesky's own service, unless the operator (AGENTD_BLUESKY_SERVICE_URL) or the entry names another. */
export const defaultBlueskyServiceUrl = 'https://bsky.social';

type Atproto = Pick<typeof import('@atproto/api'), 'AtpAgent' | 'RichText' | 'XRPCError'>;
let loaded: Atproto | undefined;

/** @atproto/api is several hundred modules: loaded with the first Bluesky connection, not at start-up. */
export async function atproto(): Promise<Atproto> {
  if (loaded === undefined) {
    const { AtpAgent, RichText, XRPCError } = await import('@atproto/api');
    loaded = { AtpAgent, RichText, XRPCError };
  }
  return loaded;
}

/** Only the library makes these, so before it is loaded nothing is one. */
function isXrpcError(error: unknown): error is XRPCError {
  return loaded !== undefined && error instanceof loaded.XRPCError;
}
const requestTimeoutMs = 15_000;
/** Statuses whose responses have no body (a Response built with one throws). */
const withoutBody = new Set([204, 205, 304]);

/**
 * An AtpAgent on the entry's PDS. A PDS the entry names is a user-given
 * address: every call goes through the SSRF-safe client. The operator's
 * default (or bsky.social) is reached with the plain fetch, as other
 * connectors reach their platform's API. Every call is aborted with the
 * connector's signal, and after 15 s.
 */
export async function createBlueskyAgent(settings: BlueskySettings, context: PlatformContext): Promise<AtpAgent> {
  const { AtpAgent } = await atproto();
  const userGiven = settings.serviceUrl !== undefined;
  const service = settings.serviceUrl ?? context.apiBaseUrl ?? defaultBlueskyServiceUrl;
  const send = userGiven ? context.fetch : fetch;
  /** One call, aborted with the connector or after 15 s, its body read before the connector's signal is let go. */
  const sendBounded = async (url: string | URL, init: RequestInit, callerSignal: AbortSignal | null | undefined) => {
    const attempt = attemptSignal(context.signal, requestTimeoutMs);
    try {
      const response = await send(url, {
        ...init,
        signal: callerSignal ? AbortSignal.any([attempt.signal, callerSignal]) : attempt.signal,
      });
      const body = withoutBody.has(response.status) ? null : await response.arrayBuffer();
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } finally {
      attempt.release();
    }
  };
  const bounded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (input instanceof Request) {
      // The library hands over a Request; its body is read here so every fetch gets plain parts.
      const body = await input.arrayBuffer();
      return sendBounded(
        input.url,
        { method: input.method, headers: input.headers, ...(body.byteLength > 0 ? { body } : {}) },
        init?.signal ?? input.signal,
      );
    }
    return sendBounded(input, { ...init, signal: null }, init?.signal);
  };
  return new AtpAgent({ service, fetch: bounded as typeof fetch });
}

export function requireSecrets(secrets: BlueskySecrets): { identifier: string; password: string } {
  if (secrets.identifier === undefined || secrets.appPassword === undefined) {
    const missing = [
      secrets.identifier === undefined ? 'identifier' : null,
      secrets.appPassword === undefined ? 'appPassword' : null,
    ]
      .filter((name) => name !== null)
      .join(' and ');
    throw new PlatformCredentialsRejected(
      `Bluesky has no ${missing}: set secrets.${missing.split(' and ')[0]} on the bluesky platform.`,
    );
  }
  return { identifier: secrets.identifier, password: secrets.appPassword };
}

/** The password never appears in what is logged or reported. */
function scrubbed(text: string, secrets: BlueskySecrets): string {
  return secrets.appPassword ? text.split(secrets.appPassword).join('<app password>') : text;
}

/** The outbound client's refusal, also when the library wrapped it in an XRPCError. */
function refusalOf(error: unknown): OutboundRefusedError | null {
  if (error instanceof OutboundRefusedError) return error;
  return error instanceof Error && error.cause instanceof OutboundRefusedError ? error.cause : null;
}

export function describeBlueskyFault(error: unknown, secrets: BlueskySecrets): string {
  const refused = refusalOf(error);
  if (refused !== null) return `the Bluesky service URL is refused: ${refused.message}`;
  if (isXrpcError(error)) {
    return scrubbed(
      `Bluesky answered ${error.status}${error.error ? ` ${error.error}` : ''}: ${error.message}`,
      secrets,
    );
  }
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return scrubbed(`Bluesky is unreachable: ${error instanceof Error ? error.message : String(error)}${cause}`, secrets);
}

/** The service URL the outbound client refuses, or a 401 on login: only the owner can fix these. */
export function isRejection(error: unknown): boolean {
  if (refusalOf(error) !== null) return true;
  if (isXrpcError(error)) return error.status === 401 || (error.status === 400 && error.error === 'AccountTakedown');
  return false;
}

export function rejectionOf(error: unknown, secrets: BlueskySecrets): PlatformCredentialsRejected {
  if (refusalOf(error) !== null) {
    return new PlatformCredentialsRejected(
      `${describeBlueskyFault(error, secrets)}; set a public settings.serviceUrl on the bluesky platform.`,
    );
  }
  return new PlatformCredentialsRejected(
    `Bluesky rejected the handle or app password (${describeBlueskyFault(error, secrets)}); set valid secrets.identifier and secrets.appPassword on the bluesky platform.`,
  );
}

/** When a 429 says the window resets (epoch ms), from its ratelimit-reset header. */
export function rateLimitResetOf(error: unknown): number | null | undefined {
  if (!isXrpcError(error) || error.status !== 429) return undefined;
  const reset = Number(error.headers?.['ratelimit-reset']);
  return Number.isFinite(reset) && reset > 0 ? reset * 1000 : null;
}

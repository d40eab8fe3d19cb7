import { APICallError } from '@ai-sdk/provider';

/**
 * Why a model call failed, sorted by who can fix it (contract §7):
 * - `credentials` and `model`: the owner must act; the agent goes to `error`.
 * - `unavailable` and `timeout`: transient; the status stays, the reply is 503.
 * - `rejected`: the provider refused this request (e.g. a prompt over its limit);
 *   transient for the agent, but not a sign the provider is down.
 * - `circuit-open`: answered at once while the provider's circuit is open.
 * - `aborted`: the client went away; nothing failed.
 */
export type ProviderFailureKind =
  'credentials' | 'model' | 'unavailable' | 'timeout' | 'rejected' | 'circuit-open' | 'aborted';

export class ProviderError extends Error {
  readonly kind: ProviderFailureKind;
  /** Whether trying the same call again may succeed (before the first byte only). */
  readonly isRetryable: boolean;
  readonly statusCode: number | undefined;
  /** Seconds the provider asked us to wait, when it said so. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    kind: ProviderFailureKind,
    message: string,
    options: { isRetryable?: boolean; statusCode?: number; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.isRetryable = options.isRetryable ?? false;
    this.statusCode = options.statusCode;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** A fault only the agent's owner can fix. */
  get needsOwner(): boolean {
    return this.kind === 'credentials' || this.kind === 'model';
  }

  /** A fault that says the provider is not answering well: counted by the circuit breaker. */
  get countsAgainstProvider(): boolean {
    return this.kind === 'unavailable' || this.kind === 'timeout';
  }
}

/** Retry-After in seconds or, as RFC 9110 §10.2.3 also allows, as an HTTP date (read against this host's clock). */
function retryAfterOf(headers: Record<string, string> | undefined): number | undefined {
  const raw = headers?.['retry-after']?.trim();
  if (raw === undefined || raw === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.ceil(seconds) : undefined;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * Maps whatever the AI SDK threw to a ProviderError. Messages name the
 * provider, the model and the HTTP status, never a key or a request body:
 * they end up in `statusReason`, in problem details and in logs.
 */
export function toProviderError(error: unknown, provider: string, modelName: string): ProviderError {
  if (error instanceof ProviderError) return error;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const retryAfterSeconds = retryAfterOf(error.responseHeaders);
    const extra = {
      cause: error,
      ...(status !== undefined ? { statusCode: status } : {}),
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    };
    if (status === 401 || status === 403) {
      return new ProviderError(
        'credentials',
        `The provider ${provider} rejected the credentials (HTTP ${status}).`,
        extra,
      );
    }
    if (status === 404) {
      return new ProviderError(
        'model',
        `The provider ${provider} does not know the model "${modelName}" (HTTP 404).`,
        extra,
      );
    }
    if (status !== undefined && status >= 400 && status < 500 && !error.isRetryable) {
      return new ProviderError('rejected', `The provider ${provider} rejected the request (HTTP ${status}).`, extra);
    }
    const what = status === undefined ? 'could not be reached or broke off its answer' : `answered HTTP ${status}`;
    return new ProviderError('unavailable', `The provider ${provider} ${what}.`, {
      ...extra,
      isRetryable: status === undefined || error.isRetryable,
    });
  }
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'ResponseAborted')) {
    return new ProviderError('aborted', 'The model call was aborted.', { cause: error });
  }
  // Network failures (connection refused, reset) surface as plain errors from fetch.
  return new ProviderError('unavailable', `The provider ${provider} could not be reached.`, {
    isRetryable: true,
    cause: error,
  });
}

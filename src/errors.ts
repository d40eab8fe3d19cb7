import type { FieldErrorCode } from './validation-wording.js';

/**
 * The closed error catalog of the public contract (RFC 9457 problem details).
 * Services throw AppError; the HTTP error handler is the only place that turns
 * it into a response body.
 */
export const errorCatalog = {
  invalid_json: { status: 400, title: 'Malformed JSON body', when: 'The body is not valid JSON.' },
  validation_failed: {
    status: 400,
    title: 'Request validation failed',
    when: 'A wrong type, an unknown or read-only field, an out-of-range value or a bad enum; `errors[]` lists every problem with a JSON pointer.',
  },
  unauthorized: { status: 401, title: 'Unauthorized', when: 'The API key is missing, malformed, unknown or revoked.' },
  insufficient_scope: {
    status: 403,
    title: 'Insufficient scope',
    when: 'The API key lacks the scope the operation needs; `detail` names it.',
  },
  deletion_protected: {
    status: 403,
    title: 'Deletion protected',
    when: 'DELETE of an agent with `deletionProtection: true`.',
  },
  not_found: { status: 404, title: 'Not found', when: "An unknown route, an unknown id, or another account's id." },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    when: 'A method the route does not take (GET and DELETE on the stateless MCP endpoint); `Allow` names those it takes.',
  },
  idempotency_in_progress: {
    status: 409,
    title: 'Idempotent request in progress',
    when: 'A request with the same Idempotency-Key is still running; retry shortly.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    when: "The resource's state does not allow the operation now, e.g. cancelling a run that has already ended; `detail` says why.",
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    when: 'The body is larger than the server accepts (1 MiB by default).',
  },
  unsupported_media_type: { status: 415, title: 'Unsupported media type', when: 'A body that is not JSON.' },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused',
    when: 'The Idempotency-Key was used before with a different body.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limit exceeded',
    when: 'A per-minute limit is used up; `Retry-After` says when to retry.',
  },
  concurrency_limited: {
    status: 429,
    title: 'Too many concurrent requests',
    when: 'Too many message requests are in flight for one agent; a streamed reply counts until it ends.',
  },
  budget_exceeded: {
    status: 429,
    title: 'Spend limit reached',
    when: "A message or task to an agent whose own or whose account's spend limit (tokens or US dollars, per UTC day or month) is reached; `scope`, `unit`, `period`, `limit`, `spent` and `resetsAt` say which, and `Retry-After` is the seconds until it resets.",
  },
  agent_unavailable: {
    status: 503,
    title: 'Agent unavailable',
    when: 'A message to an agent whose status is inactive or error; `detail` gives the reason.',
  },
  provider_unavailable: {
    status: 503,
    title: 'Model provider unavailable',
    when: "The agent's model provider timed out, failed, or its circuit is open; `Retry-After` is set.",
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    when: 'The database cannot be reached or lost the connection the request ran on; `Retry-After` says when to try again. A write cut off this way may or may not have been stored: send creates with an `Idempotency-Key` to retry them safely.',
  },
  internal: {
    status: 500,
    title: 'Internal server error',
    when: 'A bug: it is logged with the request id; the body holds no internals.',
  },
} as const;

export type ErrorCode = keyof typeof errorCatalog;
export const errorCodes = Object.keys(errorCatalog) as ErrorCode[];

export interface FieldError {
  /** JSON pointer into the request, e.g. `/body/name` or `/query/limit`. */
  path: string;
  /** What is wrong, for a program (src/validation-wording.ts); a problem a service finds may leave it out: `invalid`. */
  code?: FieldErrorCode;
  /** What is wrong, for a person: a sentence that follows the field's name. */
  message: string;
}

export interface AppErrorOptions {
  errors?: FieldError[];
  /** Response headers that belong to this error, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  /** RFC 9457 extension members of the problem, e.g. a spend limit's `limit` and `resetsAt`; never a secret. */
  extensions?: Record<string, unknown>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, detail?: string, options: AppErrorOptions = {}) {
    const entry = errorCatalog[code];
    super(detail ?? entry.title, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = entry.status;
    this.title = entry.title;
    this.detail = detail ?? entry.title;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions;
  }
}

/** `limit must be <= 100` from `/query/limit`: each pointer without its request part. */
export function describeFieldErrors(errors: FieldError[]): string {
  return errors
    .map((error) => {
      const field = error.path.split('/').slice(2).join('.') || error.path.split('/')[1] || 'request';
      return `${field} ${error.message}`;
    })
    .join('; ');
}

/** A 400 for one field, with the JSON pointer of the offending value. */
export function validationError(path: string, message: string, code: FieldErrorCode = 'invalid'): AppError {
  const errors = [{ path, code, message }];
  return new AppError('validation_failed', describeFieldErrors(errors), { errors });
}

export function notFound(what: string): AppError {
  return new AppError('not_found', `${what} not found`);
}

/** The RFC 9457 body of an error: in a problem response, or inside a stream's `message.failed` event. */
export function problemBody(appError: AppError, requestId: string) {
  return {
    type: `/docs/errors#${appError.code}`,
    title: appError.title,
    status: appError.status,
    code: appError.code,
    detail: appError.detail,
    ...(appError.errors
      ? { errors: appError.errors.map(({ path, code, message }) => ({ path, code: code ?? 'invalid', message })) }
      : {}),
    ...appError.extensions,
    requestId,
  };
}

/**
 * The closed error catalog of the public contract (RFC 9457 problem details).
 * Services throw AppError; the HTTP error handler is the only place that turns
 * it into a response body.
 */
export const errorCatalog = {
  invalid_json: { status: 400, title: 'Malformed JSON body' },
  validation_failed: { status: 400, title: 'Request validation failed' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  insufficient_scope: { status: 403, title: 'Insufficient scope' },
  deletion_protected: { status: 403, title: 'Deletion protected' },
  not_found: { status: 404, title: 'Not found' },
  idempotency_in_progress: { status: 409, title: 'Idempotent request in progress' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  rate_limited: { status: 429, title: 'Rate limit exceeded' },
  concurrency_limited: { status: 429, title: 'Too many concurrent requests' },
  agent_unavailable: { status: 503, title: 'Agent unavailable' },
  provider_unavailable: { status: 503, title: 'Model provider unavailable' },
  internal: { status: 500, title: 'Internal server error' },
} as const;

export type ErrorCode = keyof typeof errorCatalog;
export const errorCodes = Object.keys(errorCatalog) as ErrorCode[];

export interface FieldError {
  /** JSON pointer into the request, e.g. `/body/name` or `/query/limit`. */
  path: string;
  message: string;
}

export interface AppErrorOptions {
  errors?: FieldError[];
  /** Response headers that belong to this error, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

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
export function validationError(path: string, message: string): AppError {
  const errors = [{ path, message }];
  return new AppError('validation_failed', describeFieldErrors(errors), { errors });
}

export function notFound(what: string): AppError {
  return new AppError('not_found', `${what} not found`);
}

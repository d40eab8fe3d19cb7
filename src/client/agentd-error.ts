import type { ErrorCode, Problem } from './types.js';

/**
 * Every failed request, as the RFC 9457 problem the server answered. An answer
 * that is not a problem (a proxy's HTML page, a cut connection mid-body) gets the
 * client's own code `invalid_response`, so callers switch on `code` alone.
 */
export class AgentdError extends Error {
  readonly status: number;
  readonly code: ErrorCode | 'invalid_response';
  readonly detail: string;
  readonly errors: NonNullable<Problem['errors']>;
  readonly requestId: string | null;

  constructor(
    status: number,
    problem: Problem | null,
    fallbackDetail = 'the server answered something other than a problem',
  ) {
    const detail = problem?.detail ?? fallbackDetail;
    super(problem ? `${problem.code}: ${detail}` : `HTTP ${status}: ${detail}`);
    this.name = 'AgentdError';
    this.status = status;
    this.code = problem?.code ?? 'invalid_response';
    this.detail = detail;
    this.errors = problem?.errors ?? [];
    this.requestId = problem?.requestId ?? null;
  }
}

export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.code === 'string' && typeof candidate.status === 'number' && typeof candidate.detail === 'string'
  );
}

/** The error for a response that was not a success. */
export function errorOf(response: Response, body: unknown): AgentdError {
  return new AgentdError(response.status, isProblem(body) ? body : null);
}

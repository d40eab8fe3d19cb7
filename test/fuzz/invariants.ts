import type { RawOutcome } from '../helpers/raw-http.js';

/**
 * What every answer must be, whatever was sent: below 500, and an RFC 9457
 * problem (with the status, a catalog code and the request id) when it is an
 * error. The one 5xx a client can cause on purpose is the contract's 503
 * `agent_unavailable` (a message to an agent it set inactive); it is still
 * checked as a problem.
 */

const allowedServerErrors = new Set(['agent_unavailable']);

/** The OpenAI-compatible operations, whose errors are OpenAI's `{error: {message, type, param, code}}`. */
const openAiOperations = new Set(['POST /v1/chat/completions', 'GET /v1/models', 'GET /v1/models/{model}']);

function openAiErrorViolation(status: number, body: Buffer): string | null {
  let parsed: any;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return `status ${status} with a body that is not JSON`;
  }
  const error = parsed?.error;
  if (typeof error?.message !== 'string' || typeof error.type !== 'string') {
    return `status ${status} without OpenAI's error shape`;
  }
  if (typeof error.code !== 'string') return `status ${status} without a code`;
  if (status >= 500 && !allowedServerErrors.has(error.code)) return `status ${status} (${error.code})`;
  return null;
}

/** Why the outcome breaks the invariant, or null when it holds. */
export function invariantViolation(method: string, outcome: RawOutcome, operation?: string): string | null {
  if (outcome.kind === 'no-response') return `no answer: ${outcome.reason}`;
  const { status, headers, body } = outcome.response;
  if (status < 400) return null;
  // A HEAD answer has the headers of the error but, by definition, no body to check.
  if (method === 'HEAD') return status >= 500 ? `status ${status}` : null;
  const type = headers['content-type'] ?? '';
  // A mangled path may miss the OpenAI route and get the not-found problem instead: either shape will do there.
  if (operation !== undefined && openAiOperations.has(operation) && type.startsWith('application/json')) {
    return openAiErrorViolation(status, body);
  }
  if (!type.startsWith('application/problem+json')) return `status ${status} with content type "${type}"`;
  let problem: any;
  try {
    problem = JSON.parse(body.toString('utf8'));
  } catch {
    return `status ${status} with a body that is not JSON`;
  }
  if (problem?.status !== status) return `status ${status} but the problem says ${JSON.stringify(problem?.status)}`;
  if (typeof problem.code !== 'string') return `status ${status} without a code`;
  if (typeof problem.requestId !== 'string') return `status ${status} without a requestId`;
  if (status >= 500 && !allowedServerErrors.has(problem.code)) return `status ${status} (${problem.code})`;
  return null;
}

import type { AppError } from '../errors.js';

/**
 * Errors on the OpenAI-compatible door: OpenAI's `{ error: { message, type,
 * param, code } }` instead of problem+json, with the same HTTP statuses and
 * headers, so that the `openai` client raises its usual error classes
 * (AuthenticationError, NotFoundError, RateLimitError, …). `code` keeps
 * agentd's catalog code; `type` follows OpenAI's names for the status.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** `openai`: this route answers errors in OpenAI's shape. */
    errorFormat?: 'openai';
  }
}

const typeByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

/** `/body/messages/2/content` → `messages`: OpenAI names the top-level field. */
function paramOf(appError: AppError): string | null {
  const path = appError.errors?.[0]?.path;
  if (path === undefined || !path.startsWith('/body/')) return null;
  return path.split('/')[2] || null;
}

export function openAiErrorBody(appError: AppError) {
  return {
    error: {
      message: appError.detail,
      type: typeByStatus[appError.status] ?? (appError.status >= 500 ? 'server_error' : 'invalid_request_error'),
      param: paramOf(appError),
      code: appError.code,
    },
  };
}

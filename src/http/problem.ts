import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, describeFieldErrors, errorCatalog, problemBody, type ErrorCode } from '../errors.js';
import { isStoreUnavailable } from '../storage/store-unavailable.js';
import { openAiErrorBody } from './openai-error.js';
import { fieldErrorsFrom } from './validation-errors.js';

/**
 * The one place error bodies are written: every AppError, every Fastify error
 * (bad JSON, wrong content type, body too large, schema validation, unknown
 * route) and every unexpected exception becomes RFC 9457 problem+json.
 */

const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  FST_ERR_BAD_URL: 'not_found',
};

/**
 * Seconds a client should wait after a database outage: a replaced connection
 * or a restarted server usually answers again within this time.
 */
const storeRetryAfterSeconds = 1;

const fastifyDetails: Partial<Record<ErrorCode, string>> = {
  invalid_json: 'The request body is not valid JSON.',
  payload_too_large: 'The request body is larger than the server accepts.',
  unsupported_media_type: 'Send the body as application/json.',
};

export function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError & { validation?: unknown; validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    const errors = fieldErrorsFrom(fastifyError.validation, fastifyError.validationContext ?? 'body');
    return new AppError('validation_failed', describeFieldErrors(errors), { errors });
  }
  // Decided here rather than in each repository: database errors reach this
  // handler from routes, the authentication hook, transactions and streams alike.
  if (isStoreUnavailable(error)) {
    return new AppError('service_unavailable', 'The database is unavailable right now; try again shortly.', {
      headers: { 'retry-after': String(storeRetryAfterSeconds) },
      cause: error,
    });
  }
  const mapped = fastifyError.code ? fastifyCodes[fastifyError.code] : undefined;
  if (mapped) return new AppError(mapped, fastifyDetails[mapped] ?? errorCatalog[mapped].title);
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    // A client error Fastify raised that the catalog has no row for: a bad request.
    return new AppError('validation_failed', 'The request is malformed.');
  }
  return new AppError('internal', 'An unexpected error occurred; it has been logged with the request id.', {
    cause: error,
  });
}

export { problemBody } from '../errors.js';

export function sendProblem(reply: FastifyReply, request: FastifyRequest, appError: AppError): FastifyReply {
  if (appError.status === 401) reply.header('www-authenticate', 'Bearer realm="agentd"');
  for (const [name, value] of Object.entries(appError.headers)) reply.header(name, value);
  reply.status(appError.status);
  // The OpenAI-compatible routes speak OpenAI's error shape; the rest of the API, RFC 9457.
  if (request.routeOptions.config?.errorFormat === 'openai') {
    return reply.type('application/json; charset=utf-8').send(openAiErrorBody(appError));
  }
  return reply.type('application/problem+json; charset=utf-8').send(problemBody(appError, request.id));
}

export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500 && appError.code === 'internal') {
      request.log.error({ err: error, requestId: request.id }, 'unhandled error');
    } else if (appError.code === 'service_unavailable') {
      request.log.warn(
        { err: { message: error.message, code: (error as { code?: unknown }).code }, requestId: request.id },
        'database unavailable',
      );
    }
    if (reply.sent || reply.raw.headersSent) return;
    return sendProblem(reply, request, appError);
  });

  app.setNotFoundHandler((request, reply) => {
    sendProblem(
      reply,
      request,
      new AppError(
        'not_found',
        `No route matches ${request.method} ${(request.url.split('?')[0] ?? '').slice(0, 200)}.`,
      ),
    );
  });
}

import { Type, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { errorCodes } from '../errors.js';
import { idPattern, type IdKind } from '../ids.js';
import { fieldErrorCodes } from '../validation-wording.js';

/** A string enum as `{ type: string, enum: [...] }`, which validates with one clear error. */
export function StringEnum<const Values extends readonly string[]>(
  values: Values,
  options: { description?: string; default?: Values[number] } = {},
): TUnsafe<Values[number]> {
  return Type.Unsafe<Values[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * A nullable value in a response, as a JSON Schema type list. Request schemas
 * use `Type.Union([…, Type.Null()])` for their error messages; responses use
 * this form because the serializer handles a type list with a `typeof` check,
 * where a union costs a validation per branch on every response.
 */
export function NullableInResponse(
  type: 'string' | 'integer',
  options: { description?: string } = {},
): TUnsafe<string | null> {
  return Type.Unsafe<string | null>({ type: [type, 'null'], ...options });
}

/** RFC 9457 problem details, the body of every error response. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'A link to the documentation of this error code.' }),
    title: Type.String(),
    status: Type.Integer(),
    code: StringEnum(errorCodes, { description: 'Stable machine-readable error code.' }),
    detail: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String({ description: 'JSON pointer into the request, e.g. /body/name or /query/limit.' }),
          code: StringEnum(fieldErrorCodes, {
            description:
              'Stable machine-readable kind of problem: `required`, `unknown_property`, `read_only`, `type`, ' +
              '`enum`, `too_short` (a string, list or map below its minimum, or empty), `too_long`, `too_small` ' +
              '(a number below its minimum), `too_large`, `pattern` (not in the accepted form), `not_url`, ' +
              '`invalid_id` (not an id of the kind the field takes), `format` (e.g. not a date-time), ' +
              '`not_unique`, `invalid_key` (a key of a map), or `invalid` (any other problem).',
          }),
          message: Type.String({
            description:
              'What is wrong, in words that follow the field name: "must not be empty", "must be an http(s) URL", ' +
              '"is not a knowledge base id". Never a raw pattern; may change between versions, unlike `code`.',
          }),
        }),
      ),
    ),
    // RFC 9457 extension members of `budget_exceeded` (a spend limit is reached).
    scope: Type.Optional(StringEnum(['agent', 'account'] as const, { description: 'budget_exceeded: whose limit.' })),
    agentId: Type.Optional(Type.String({ description: 'budget_exceeded: the agent the message was for.' })),
    unit: Type.Optional(StringEnum(['tokens', 'usd'] as const, { description: 'budget_exceeded: the unit.' })),
    period: Type.Optional(
      StringEnum(['day', 'month'] as const, { description: 'budget_exceeded: a UTC day or month.' }),
    ),
    limit: Type.Optional(Type.Number({ description: 'budget_exceeded: the limit, in `unit`.' })),
    spent: Type.Optional(Type.Number({ description: 'budget_exceeded: spent by replies that ended, in `unit`.' })),
    reserved: Type.Optional(Type.Number({ description: 'budget_exceeded: reserved by replies in flight, in `unit`.' })),
    resetsAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'budget_exceeded: when the period resets.' }),
    ),
    requestId: Type.String(),
  },
  { $id: 'Problem', title: 'Problem' },
);

const problemReference = Type.Unsafe({ $ref: 'Problem#' });

const statusDescriptions: Record<number, string> = {
  400: 'Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`).',
  401: 'Missing, malformed, unknown or revoked API key (`unauthorized`).',
  403: 'The key lacks the scope this operation needs (`insufficient_scope`).',
  404: 'No such resource in this account (`not_found`).',
  409: 'A request with the same Idempotency-Key is still running (`idempotency_in_progress`), or the resource is in a state that does not allow the operation (`conflict`).',
  413: 'The body is larger than the limit (`payload_too_large`).',
  415: 'The body is not JSON (`unsupported_media_type`).',
  422: 'The Idempotency-Key was used with a different body (`idempotency_key_reused`).',
  429: 'A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After.',
  503: 'The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After.',
};

/**
 * Response entries for the error statuses an operation can answer, all with the
 * Problem schema. Every operation reads the database (the key at least), so
 * every one may answer 503 while it is unreachable.
 */
export function problemResponses(...statuses: number[]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const status of [401, 403, 429, 503, ...statuses]) {
    responses[status] = Type.Unsafe({
      ...problemReference,
      description: statusDescriptions[status] ?? 'Error',
    });
  }
  return responses;
}

export function IdString(kind: IdKind, description?: string) {
  return Type.String({ pattern: idPattern(kind), ...(description ? { description } : {}) });
}

export const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339 UTC time with milliseconds.' });

/**
 * A time that may not have happened yet (null until then), in the same format
 * and documented the same way as `Timestamp`: every `…At` field of the API is
 * one of the two, so a client parses them all alike.
 */
export function NullableTimestamp(description?: string): TUnsafe<string | null> {
  return Type.Unsafe<string | null>({
    type: ['string', 'null'],
    format: 'date-time',
    description: description ?? 'RFC 3339 UTC time with milliseconds, or null.',
  });
}

/**
 * Whether an error means the database could not be reached or lost the
 * connection a query ran on, rather than that the query itself was wrong. Such
 * a request may well succeed a moment later, so it is answered 503 with
 * Retry-After instead of 500: no fault of the client's and no bug of ours.
 */

/** Node socket errors: the server is down, restarting, or the network between us is. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs: 57P01 admin_shutdown (also what pg_terminate_backend
 * sends), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting or
 * stopping), 53300 too_many_connections; class 08 is every connection exception.
 */
const postgresStates = new Set(['57P01', '57P02', '57P03', '53300']);

/** What the `pg` client says, without a code, when it loses or cannot get a connection. */
const clientMessages = ['Connection terminated', 'timeout exceeded when trying to connect', 'is not queryable'];

function matchesItself(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (socketCodes.has(code) || postgresStates.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    // SQLite: another connection held the lock longer than busy_timeout (extended codes share the prefix).
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
  }
  return typeof message === 'string' && clientMessages.some((text) => message.includes(text));
}

export function isStoreUnavailable(error: unknown): boolean {
  if (matchesItself(error)) return true;
  if (typeof error !== 'object' || error === null) return false;
  // Connecting to a name with several addresses fails with an AggregateError of each attempt.
  const { errors, cause } = error as { errors?: unknown; cause?: unknown };
  if (Array.isArray(errors) && errors.length > 0 && errors.every(matchesItself)) return true;
  return cause !== undefined && cause !== error && matchesItself(cause);
}

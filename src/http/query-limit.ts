import { AppError } from '../errors.js';

/**
 * Refuses a query string over `maxBytes` before anything else looks at it:
 * the longest valid query of the API is a few hundred bytes, and parsing or
 * logging a 16 KiB one on every request is work a client should not be able
 * to ask for. Node's header limit alone would allow a query as long as that.
 * Returns the error to answer with, or null when the query is within bounds.
 */
export function queryLimitError(url: string, maxBytes: number): AppError | null {
  const start = url.indexOf('?');
  if (start < 0 || Buffer.byteLength(url) - start - 1 <= maxBytes) return null;
  const message = `must be at most ${maxBytes} bytes`;
  return new AppError('validation_failed', `The query string ${message}.`, {
    errors: [{ path: '/query', code: 'too_long', message }],
  });
}

import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/**
 * Refuses a query string over `maxBytes` before anything else looks at it:
 * the longest valid query of the API is a few hundred bytes, and parsing or
 * logging a 16 KiB one on every request is work a client should not be able
 * to ask for. Node's header limit alone would allow a query as long as that.
 */
export function registerQueryLimit(app: FastifyInstance, maxBytes: number): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const start = request.url.indexOf('?');
    if (start >= 0 && Buffer.byteLength(request.url) - start - 1 > maxBytes) {
      const message = `must be at most ${maxBytes} bytes`;
      done(
        new AppError('validation_failed', `The query string ${message}.`, { errors: [{ path: '/query', message }] }),
      );
      return;
    }
    done();
  });
}

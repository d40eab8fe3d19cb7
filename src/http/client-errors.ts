import type { FastifyBaseLogger } from 'fastify';
import type { Socket } from 'node:net';
import { AppError } from '../errors.js';
import { problemBody } from './problem.js';

/**
 * Requests Node's HTTP parser rejects before Fastify sees them (malformed
 * request lines or headers, conflicting framing, headers over the size
 * limit) are answered here. Fastify's default answers them with a JSON body
 * of its own; the contract says every error is problem+json with a request id.
 */

function appErrorFor(code: string | undefined): AppError {
  // The catalog has no 431; "too large" is what a client needs to know to act on it.
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new AppError('payload_too_large', 'The request headers are larger than the server accepts.');
  }
  return new AppError('validation_failed', 'The request is not well-formed HTTP/1.1.');
}

/**
 * How long a connection answered here is still read (and what it sends
 * discarded) before it is closed: closing a socket with unread bytes makes
 * the kernel reset the connection, and a client still sending its body then
 * loses the answer it had not read yet (RFC 9112, section 9.6).
 */
export const lingerMs = 2_000;

export function createClientErrorHandler(logger: FastifyBaseLogger, newRequestId: () => string) {
  /** Connections answered and being drained: the parser reports each further chunk as another error. */
  const lingering = new WeakSet<Socket>();
  return (error: Error & { code?: string }, socket: Socket): void => {
    // A reset connection is already gone: there is no one to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed || lingering.has(socket)) return;
    // Headers or body not received within the bounds of config.http: a client that slow is not owed an
    // answer (the catalog has no 408), and writing one could wait on the same slow socket.
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      logger.debug({ code: error.code }, 'request not received in time; connection closed');
      socket.destroy();
      return;
    }
    const requestId = newRequestId();
    const appError = appErrorFor(error.code);
    logger.debug({ requestId, code: error.code }, 'request rejected by the HTTP parser');
    if (!socket.writable) {
      socket.destroy(error);
      return;
    }
    const body = JSON.stringify(problemBody(appError, requestId));
    // The answer, then our end of the connection closed; what the client still sends is read and dropped
    // until it closes its end or `lingerMs` pass, so that the answer is not lost to a reset.
    lingering.add(socket);
    socket.end(
      `HTTP/1.1 ${appError.status} ${appError.title}\r\n` +
        `Content-Type: application/problem+json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
    const linger = setTimeout(() => socket.destroy(), lingerMs);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
    socket.once('end', () => socket.destroy());
    socket.resume();
  };
}

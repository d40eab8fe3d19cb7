import type { FastifyServerOptions } from 'fastify';
import type { HttpBounds } from '../config.js';

/**
 * The Fastify and node:http options that bound one connection. Fastify's own
 * default request time-out is 0 (none), which leaves a client that sends a
 * header byte now and then holding a socket for ever.
 */
export function serverBoundsOptions(bounds: HttpBounds): Pick<
  FastifyServerOptions,
  'requestTimeout' | 'keepAliveTimeout'
> & {
  http: { maxHeaderSize: number; headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    requestTimeout: bounds.requestTimeoutMs,
    keepAliveTimeout: bounds.keepAliveTimeoutMs,
    http: {
      maxHeaderSize: bounds.maxHeaderBytes,
      headersTimeout: bounds.headersTimeoutMs,
      requestTimeout: bounds.requestTimeoutMs,
      // Node enforces both time-outs on this sweep (30 s by default), so a bound is only as exact as the
      // sweep is frequent: a quarter of the headers time-out keeps the overshoot at 25 %.
      connectionsCheckingInterval: Math.min(30_000, Math.max(25, Math.floor(bounds.headersTimeoutMs / 4))),
    },
  };
}

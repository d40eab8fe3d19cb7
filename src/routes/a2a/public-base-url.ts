import type { FastifyRequest } from 'fastify';

/**
 * The address agent cards give for the service: AGENTD_PUBLIC_BASE_URL when
 * set (behind a proxy, the address clients use), else the one the request
 * was sent to.
 */
export function publicBaseUrl(request: FastifyRequest, configured: string | null): string {
  if (configured !== null) return configured.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

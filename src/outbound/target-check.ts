import net from 'node:net';
import { anyAddress, publicAddressesOnly } from './address-policy.js';
import { systemResolver, type HostResolver } from './guarded-lookup.js';

const resolveTimeoutMs = 2_000;

/**
 * Checks a URL a user registers for later calls (a webhook target) with the
 * rules the outbound client applies when it connects: the reason it would be
 * refused, or null. A name that does not resolve now is accepted (DNS may be
 * down for a moment); every call is checked again where the connection is
 * made, which also covers a name that resolves elsewhere later.
 */
export async function targetRefusal(
  url: URL,
  allowPrivateAddresses: boolean,
  resolve: HostResolver = systemResolver,
): Promise<string | null> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http: and https: URLs are allowed';
  if (url.username !== '' || url.password !== '') return 'URLs with credentials are not allowed';
  const policy = allowPrivateAddresses ? anyAddress : publicAddressesOnly;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(hostname) !== 0) return policy(hostname);
  if (allowPrivateAddresses) return null;
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return 'a loopback address';
  let timer: NodeJS.Timeout | undefined;
  const resolved = await Promise.race([
    resolve(hostname).catch(() => []),
    new Promise<[]>((done) => (timer = setTimeout(() => done([]), resolveTimeoutMs))),
  ]).finally(() => clearTimeout(timer));
  for (const { address } of resolved) {
    const refusal = policy(address);
    if (refusal !== null) return `it resolves to ${refusal}`;
  }
  return null;
}

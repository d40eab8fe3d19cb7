import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import { OutboundRefusedError } from './outbound-refused-error.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Turns a host name into addresses; the default is the system resolver (what node:net would use). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = (hostname) =>
  dns.promises.lookup(hostname, { all: true, order: 'verbatim' });

/**
 * The `lookup` node:net calls while it opens a connection. The addresses it
 * hands back are the ones the socket connects to, so checking them here leaves
 * no gap between the check and the connection (a second resolution could
 * answer differently: DNS rebinding). Addresses the policy refuses are
 * dropped; when none is left, the connection fails with OutboundRefusedError.
 */
export function guardedLookup(resolve: HostResolver, policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (resolved) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const candidates = resolved.filter(({ family }) => wanted === 0 || family === wanted);
        const allowed = candidates.filter(({ address }) => policy(address) === null);
        if (allowed.length === 0) {
          const first = candidates[0];
          const reason =
            first === undefined
              ? 'the name has no address'
              : `it resolves to ${policy(first.address) ?? 'nothing usable'}`;
          callback(new OutboundRefusedError(hostname, reason), '', 0);
          return;
        }
        if (options.all) callback(null, allowed);
        else callback(null, allowed[0]!.address, allowed[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

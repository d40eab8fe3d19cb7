import ipaddr from 'ipaddr.js';

/**
 * Which addresses an outgoing call to a user-given URL may connect to. A
 * policy returns null to allow an address, or the reason it is refused (a few
 * words a person can read, e.g. "a loopback address").
 */
export type AddressPolicy = (address: string) => string | null;

const descriptions: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  uniqueLocal: 'a unique-local address',
  reserved: 'a reserved address',
};

/**
 * IPv6 forms that carry an IPv4 address a packet may end up at: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-translated (RFC 6145), NAT64 (RFC 6052), 6to4
 * (RFC 3056) and the deprecated IPv4-compatible ::a.b.c.d. They are judged by
 * the IPv4 address inside, so ::ffff:127.0.0.1 is as loopback as 127.0.0.1.
 */
function embeddedIpv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const parts = address.parts;
  const fromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (range) {
    case 'ipv4Mapped':
      return address.toIPv4Address();
    case 'rfc6145':
    case 'rfc6052':
      return fromWords(parts[6]!, parts[7]!);
    case '6to4':
      return fromWords(parts[1]!, parts[2]!);
    case 'unicast':
      // ::/96 other than :: and ::1 (which ipaddr.js already names) is IPv4-compatible.
      return parts.slice(0, 6).every((part) => part === 0) ? fromWords(parts[6]!, parts[7]!) : null;
    default:
      return null;
  }
}

/** The special-purpose range an address belongs to, or "unicast" for an ordinary public address. */
export function addressRange(text: string): string {
  const address = ipaddr.parse(text);
  const range = address.range();
  if (address.kind() === 'ipv6') {
    const inner = embeddedIpv4(address as ipaddr.IPv6, range);
    if (inner !== null) return inner.range();
  }
  return range;
}

/**
 * The default: only ordinary public unicast addresses. Anything ipaddr.js
 * names as special (loopback, RFC 1918, link-local with the cloud metadata
 * address 169.254.169.254, fc00::/7, CGNAT, multicast, documentation and
 * benchmarking ranges, Teredo…) is refused; so is text that is not an address.
 */
export const publicAddressesOnly: AddressPolicy = (text) => {
  if (!ipaddr.isValid(text)) return 'not an IP address';
  const range = addressRange(text);
  if (range === 'unicast') return null;
  return descriptions[range] ?? `a special-purpose address (${range})`;
};

/** For trusted setups (AGENTD_OUTBOUND_ALLOW_PRIVATE): any address. */
export const anyAddress: AddressPolicy = () => null;

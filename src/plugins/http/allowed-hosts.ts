/**
 * Whether `hostname` (as the URL parser gives it: lower case, punycode) is on
 * the list. `*.example.com` matches any subdomain at any depth but not
 * example.com itself, as in TLS certificates' wildcard intent.
 */
export function isAllowedHost(hostname: string, allowedHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return allowedHosts.some((entry) => {
    const pattern = entry.toLowerCase().replace(/\.$/, '');
    if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
    return host === pattern;
  });
}

/**
 * Whether `hostname` (as the URL parser gives it: lower case, punycode) is on
 * the list. `*.example.com` matches every subdomain at any depth
 * (a.b.example.com too) but not example.com itself: wider than a TLS
 * certificate's wildcard, which covers one label, as the docs say.
 */
export function isAllowedHost(hostname: string, allowedHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return allowedHosts.some((entry) => {
    const pattern = entry.toLowerCase().replace(/\.$/, '');
    if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
    return host === pattern;
  });
}

/** Where the headers of one `secretHeaders` key may go: one scheme, one port, the hosts of a pattern. */
export interface SecretOrigin {
  protocol: 'http:' | 'https:';
  /** A host pattern as in `allowedHosts`. */
  host: string;
  port: string;
}

const defaultPorts = { 'http:': '80', 'https:': '443' } as const;

/**
 * The origin a `secretHeaders` key names (the config schema has checked its
 * form). A bare host ("api.example.com", "*.example.com") is https on port 443
 * only; plain http or another port has to be written out
 * ("http://127.0.0.1:8080"), so a credential meant for an API never reaches,
 * by a mistaken URL or a redirect, a listener on another port of its host or
 * the host over an unencrypted connection.
 */
export function secretOriginOf(key: string): SecretOrigin {
  const written = /^(https?):\/\/(.+?)(?::([0-9]+))?$/.exec(key);
  if (written === null) return { protocol: 'https:', host: key, port: defaultPorts['https:'] };
  const protocol = `${written[1]}:` as SecretOrigin['protocol'];
  return { protocol, host: written[2]!, port: written[3] ?? defaultPorts[protocol] };
}

/** Whether `url` is of `origin`: the same scheme, the same port (defaults counted) and a host of its pattern. */
export function isOfSecretOrigin(url: URL, origin: SecretOrigin): boolean {
  if (url.protocol !== origin.protocol) return false;
  const port = url.port === '' ? defaultPorts[origin.protocol] : url.port;
  return port === origin.port && isAllowedHost(url.hostname, [origin.host]);
}

/** The origin as the model is told it, `https://api.example.com`, the port only when it is not the default. */
export function describeSecretOrigin({ protocol, host, port }: SecretOrigin): string {
  return `${protocol}//${host}${port === defaultPorts[protocol] ? '' : `:${port}`}`;
}

import type { OpenApiDocument } from './document.js';

/** What one request carries for its security requirement: headers, and query parameters. */
export interface Credentials {
  headers: Record<string, string>;
  query: Array<[string, string]>;
}

type Scheme = Record<string, unknown>;

function schemesOf(document: OpenApiDocument): Record<string, Scheme> {
  const components = document.components as { securitySchemes?: Record<string, Scheme> } | undefined;
  return components?.securitySchemes ?? {};
}

/** The scheme names of the document, for the check of an entry's secrets. */
export function securitySchemeNames(document: OpenApiDocument): string[] {
  return Object.keys(schemesOf(document));
}

/** Fills one scheme with its secret; false for a scheme agentd cannot fill (e.g. mutualTLS). */
function apply(scheme: Scheme, secret: string, credentials: Credentials): boolean {
  const type = String(scheme.type ?? '');
  if (type === 'apiKey' && typeof scheme.name === 'string') {
    if (scheme.in === 'header') credentials.headers[scheme.name] = secret;
    else if (scheme.in === 'query') credentials.query.push([scheme.name, secret]);
    else if (scheme.in === 'cookie') {
      const cookie = `${scheme.name}=${secret}`;
      credentials.headers.cookie = credentials.headers.cookie ? `${credentials.headers.cookie}; ${cookie}` : cookie;
    } else return false;
    return true;
  }
  if (type === 'http') {
    const kind = String(scheme.scheme ?? '').toLowerCase();
    if (kind === 'bearer') credentials.headers.authorization = `Bearer ${secret}`;
    else if (kind === 'basic') credentials.headers.authorization = `Basic ${Buffer.from(secret).toString('base64')}`;
    else return false;
    return true;
  }
  if (type === 'oauth2' || type === 'openIdConnect') {
    credentials.headers.authorization = `Bearer ${secret}`;
    return true;
  }
  return false;
}

/**
 * The credentials an operation's request carries: the first of its security
 * requirements (alternatives, in the document's order) whose every scheme has
 * a secret and can be filled. None when no requirement can be met; the server
 * then answers as it does to a caller without credentials, which the model
 * reads.
 */
export function credentialsFor(
  document: OpenApiDocument,
  requirements: ReadonlyArray<Record<string, unknown>>,
  secrets: Readonly<Record<string, string>>,
): Credentials | null {
  const schemes = schemesOf(document);
  for (const requirement of requirements) {
    const names = Object.keys(requirement);
    // `{}` makes credentials optional: it is met by sending none, which is what happens when nothing else is.
    if (names.length === 0) continue;
    const credentials: Credentials = { headers: {}, query: [] };
    const met = names.every((name) => {
      const scheme = schemes[name];
      const secret = secrets[name];
      return scheme !== undefined && secret !== undefined && apply(scheme, secret, credentials);
    });
    if (met) return credentials;
  }
  return null;
}

/**
 * Forms of the secrets a server may echo other than as given (the base64 of
 * basic credentials, a query key as the URL encodes it), for masking in what
 * the model reads; the secrets themselves are masked by the core.
 */
export function derivedSecretForms(document: OpenApiDocument, secrets: Readonly<Record<string, string>>): string[] {
  const schemes = schemesOf(document);
  const forms = new Set<string>();
  for (const [name, secret] of Object.entries(secrets)) {
    const scheme = schemes[name];
    if (scheme?.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') {
      forms.add(Buffer.from(secret).toString('base64'));
    }
    if (scheme?.type === 'apiKey' && scheme.in === 'query') {
      forms.add(new URLSearchParams({ key: secret }).toString().slice('key='.length));
      forms.add(encodeURIComponent(secret));
    }
  }
  forms.delete('');
  return [...forms].filter((form) => !Object.values(secrets).includes(form));
}

import { ToolError, type Tool } from './plugin.js';

const mask = '••••';
/** Secrets, and each form of one, shorter than this are not searched for: they would match ordinary text. */
const shortestSearched = 6;

/** RFC 9110 `token`: the name of an auth scheme or of an auth-param. */
const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** `<scheme> <credentials>` (RFC 9110 §11.4): `Bearer tok_…`, `Basic dXNlcjpwYXNz`, `Bot …`, `OAuth k="v", …`. */
const schemeAndCredentials = new RegExp(`^(${token})[ \\t]+(\\S[\\s\\S]*)$`);
/** One auth-param, `name=value` or `name="quoted value"` (OAuth 1.0a, Digest, `Token token="…"`). */
const authParameter = new RegExp(`(${token})[ \\t]*=[ \\t]*(?:"((?:[^"\\\\]|\\\\[\\s\\S])*)"|([^,\\s"]*))`, 'g');
/** Auth-params that say how a request was signed, not who signs it: `HMAC-SHA1` or a timestamp is no secret. */
const publicParameters = new Set([
  'realm',
  'oauth_signature_method',
  'oauth_version',
  'oauth_timestamp',
  'oauth_nonce',
]);
/** The standard base64 alphabet, as `Basic` credentials are written. */
const base64Text = /^[A-Za-z0-9+/]+={0,2}$/;

function percentDecoded(text: string): string | undefined {
  if (!text.includes('%')) return undefined;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** `user:password` and the password of `Basic` credentials, when they decode to text. */
function basicParts(credentials: string): string[] {
  if (!base64Text.test(credentials)) return [];
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1 || decoded.includes('\uFFFD')) return [];
  return [decoded, decoded.slice(colon + 1)];
}

/**
 * The parts of a secret a server may give back on their own: the secret
 * itself, the credentials after an auth scheme, the decoded pair of `Basic`
 * and its password, and the values of auth-params (as written and
 * percent-decoded, as OAuth 1.0a encodes them).
 */
function partsOf(secret: string): string[] {
  const parts = [secret];
  const match = schemeAndCredentials.exec(secret.trim());
  if (match === null) return parts;
  const [, scheme = '', credentials = ''] = match;
  parts.push(credentials);
  if (scheme.toLowerCase() === 'basic') parts.push(...basicParts(credentials));
  for (const [, name = '', quoted, bare] of credentials.matchAll(authParameter)) {
    if (publicParameters.has(name.toLowerCase())) continue;
    const value = quoted === undefined ? (bare ?? '') : quoted.replace(/\\([\s\S])/g, '$1');
    parts.push(value);
    const decoded = percentDecoded(value);
    if (decoded !== undefined) parts.push(decoded);
  }
  return parts;
}

/**
 * How a part may be written in what comes back: as is, escaped in a JSON
 * string (`\"`, `\\`, and `\/` as some servers write it), URL-encoded (in a
 * path or query, and as a form writes spaces), and in base64 (standard and
 * URL-safe, without the padding, which depends on what follows).
 */
function writtenForms(part: string): string[] {
  const json = JSON.stringify(part).slice(1, -1);
  const base64 = Buffer.from(part).toString('base64').replace(/=+$/, '');
  return [
    part,
    json,
    json.replaceAll('/', '\\/'),
    encodeURIComponent(part),
    new URLSearchParams({ _: part }).toString().slice('_='.length),
    base64,
    base64.replaceAll('+', '-').replaceAll('/', '_'),
  ];
}

/** Every form of every secret that is searched for, longest first. */
export function secretForms(secretValues: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secretValues) {
    if (secret.length < shortestSearched) continue;
    for (const part of partsOf(secret)) for (const form of writtenForms(part)) forms.add(form);
  }
  return [...forms].filter((form) => form.length >= shortestSearched).sort((a, b) => b.length - a.length);
}

/**
 * The secrets of one plugin entry, ready to be masked in whatever its tools
 * give back. The forms of each secret are worked out once, when the entry is
 * opened, since masking runs on every tool result.
 */
export class SecretMask {
  readonly #forms: readonly string[];
  /**
   * The forms searched for first: those with no other form inside them, each
   * with the longer forms that contain it, which are searched for only where
   * it is found. A text without any of these has no form at all, and most
   * forms contain another (`Bearer tok_…` holds `tok_…`, and so do its
   * JSON-escaped and URL-encoded forms), so a text with no secret, the usual
   * case, is scanned for far fewer.
   */
  readonly #innermost: ReadonlyArray<{ form: string; containers: readonly string[] }>;
  readonly #shortest: number;
  /**
   * Bytes to read past a cut for a secret begun before it to be seen whole:
   * the longest form in any text encoding a body may have (UTF-8 takes at
   * most three bytes per UTF-16 unit, UTF-16 two).
   */
  readonly marginBytes: number;

  constructor(secretValues: readonly string[]) {
    this.#forms = secretForms(secretValues);
    this.#innermost = this.#forms
      .filter((form) => !this.#forms.some((other) => other.length < form.length && form.includes(other)))
      .map((form) => ({
        form,
        containers: this.#forms.filter((other) => other.length > form.length && other.includes(form)),
      }));
    this.#shortest = this.#forms.at(-1)?.length ?? Infinity;
    this.marginBytes = 3 * (this.#forms[0]?.length ?? 0);
  }

  /** Whether there is nothing to mask. */
  get empty(): boolean {
    return this.#forms.length === 0;
  }

  /**
   * Where the forms occur in the text, overlapping ones merged (one secret's
   * tail may be another's head: masking one must not leave the rest of the
   * other showing); null when none does.
   */
  #found(text: string): Array<[start: number, end: number]> | null {
    if (text.length < this.#shortest) return null;
    let found: Array<[number, number]> | null = null;
    for (const { form, containers } of this.#innermost) {
      if (form.length > text.length || !text.includes(form)) continue;
      for (const each of [form, ...containers]) {
        for (let at = text.indexOf(each); at !== -1; at = text.indexOf(each, at + 1)) {
          (found ??= []).push([at, at + each.length]);
        }
      }
    }
    if (found === null) return null;
    found.sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [found[0]!];
    for (const [start, end] of found.slice(1)) {
      const last = merged.at(-1)!;
      if (start <= last[1]) last[1] = Math.max(last[1], end);
      else merged.push([start, end]);
    }
    return merged;
  }

  /** The text with every form of every secret masked. */
  text(text: string): string {
    return this.head(text, text.length);
  }

  /**
   * The first `end` characters of the text, masked as the whole text is: a
   * secret that begins before the cut is masked whole, so a cut never shows
   * its first characters. The text must reach `marginBytes` past the cut for
   * that (see readableText).
   */
  head(text: string, end: number): string {
    const found = this.#found(text);
    if (found === null) return end >= text.length ? text : text.slice(0, end);
    let result = '';
    let shown = 0;
    for (const [start, stop] of found) {
      if (start >= end) break;
      result += text.slice(shown, start) + mask;
      shown = stop;
    }
    return shown < end ? result + text.slice(shown, end) : result;
  }

  /**
   * A tool's output with the secrets masked in each of its strings and keys,
   * as JSON would show them (`toJSON` first). Strings are masked one by one,
   * not as serialized JSON, in which a secret with `"` or `\` is written
   * otherwise. Unchanged parts are the same objects: nothing is copied when
   * nothing is found, which is nearly always.
   */
  value(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      return this.value((value as { toJSON(): unknown }).toJSON());
    }
    if (Array.isArray(value)) {
      let copy: unknown[] | null = null;
      value.forEach((item: unknown, index) => {
        const masked = this.value(item);
        if (masked !== item) (copy ??= [...value])[index] = masked;
      });
      return copy ?? value;
    }
    const entries = Object.entries(value);
    let changed = false;
    const masked = entries.map(([key, item]): [string, unknown] => {
      const entry: [string, unknown] = [this.text(key), this.value(item)];
      changed ||= entry[0] !== key || entry[1] !== item;
      return entry;
    });
    // fromEntries defines each key as its own property, `__proto__` included, as JSON.parse does.
    return changed ? Object.fromEntries(masked) : value;
  }
}

/** The text with each of `secrets` (of six characters or more) masked as given, in no other form. */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets.filter((value) => value.length >= shortestSearched))
    if (result.includes(secret)) result = result.replaceAll(secret, mask);
  return result;
}

/**
 * The plugin's tools with its secrets masked in whatever they give back to
 * the model (outputs and error messages): a server that echoes a header, or a
 * page that quotes a token, does not hand a secret to the model.
 */
export function withSecretsRedacted(tools: Tool[], secretValues: readonly string[]): Tool[] {
  const secrets = new SecretMask(secretValues);
  if (secrets.empty) return tools;
  return tools.map((tool) => ({
    ...tool,
    async execute(input, context) {
      try {
        return secrets.value(await tool.execute(input, context));
      } catch (error) {
        if (error instanceof ToolError) throw new ToolError(secrets.text(error.message));
        throw error;
      }
    },
  }));
}

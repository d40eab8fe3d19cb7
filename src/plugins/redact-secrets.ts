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
/**
 * Bounds on the work of finding a secret's parts, so that an entry's secrets
 * (up to 50 of 10,000 characters each) cannot make opening it, or masking a
 * result, take more than a moment: parts are looked for only in a secret of
 * up to this many characters (a credential longer than that is masked as
 * written), and in at most this many auth-params of it.
 */
const longestParsed = 2048;
const mostParameters = 8;
/** How many masks `SecretMask.of` keeps: one per plugin entry failing at a time is plenty. */
const recentMasks = 64;
/** Past this many forms, working out which contain which costs more than it saves: every form is searched. */
const mostNested = 256;
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
  // Header values are sent without the whitespace around them (a paste often leaves a newline), and echoed so.
  const trimmed = secret.trim();
  const parts = trimmed === secret ? [secret] : [secret, trimmed];
  if (trimmed.length > longestParsed) return parts;
  const match = schemeAndCredentials.exec(trimmed);
  if (match === null) return parts;
  const [, scheme = '', credentials = ''] = match;
  parts.push(credentials.trim());
  if (scheme.toLowerCase() === 'basic') parts.push(...basicParts(credentials.trim()));
  let parameters = 0;
  for (const [, name = '', quoted, bare] of credentials.matchAll(authParameter)) {
    if (publicParameters.has(name.toLowerCase())) continue;
    if ((parameters += 1) > mostParameters) break;
    const value = quoted === undefined ? (bare ?? '') : quoted.replace(/\\([\s\S])/g, '$1');
    parts.push(value);
    const decoded = percentDecoded(value);
    if (decoded !== undefined) parts.push(decoded);
  }
  return parts;
}

/**
 * The base64 characters that encode nothing but the part's own bytes, for
 * each of the three places its first byte can take in a group of three: a
 * part encoded inside a larger text (request headers echoed in base64) is
 * written otherwise at each, and its first and last characters share bits
 * with its neighbours. The part alone, padding aside, is one more form.
 */
function base64Forms(part: string): string[] {
  const bytes = Buffer.from(part);
  const forms = [bytes.toString('base64').replace(/=+$/, '')];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    forms.push(encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6)));
  }
  return forms.flatMap((form) => [form, form.replaceAll('+', '-').replaceAll('/', '_')]);
}

/**
 * How a part may be written in what comes back: as is, escaped in a JSON
 * string (`\"`, `\\`, and `\/` as some servers write it), URL-encoded (in a
 * path or query, with upper- or lower-case hex, and as a form writes spaces),
 * and in base64 (standard and URL-safe, see base64Forms).
 */
function writtenForms(part: string): string[] {
  const json = JSON.stringify(part).slice(1, -1);
  const encoded = encodeURIComponent(part);
  return [
    part,
    json,
    json.replaceAll('/', '\\/'),
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    new URLSearchParams({ _: part }).toString().slice('_='.length),
    ...base64Forms(part),
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
    this.#innermost =
      this.#forms.length > mostNested
        ? this.#forms.map((form) => ({ form, containers: [] }))
        : this.#forms
            .filter((form) => !this.#forms.some((other) => other.length < form.length && form.includes(other)))
            .map((form) => ({
              form,
              containers: this.#forms.filter((other) => other.length > form.length && other.includes(form)),
            }));
    this.#shortest = this.#forms.at(-1)?.length ?? Infinity;
    this.marginBytes = 3 * (this.#forms[0]?.length ?? 0);
  }

  static readonly #recent = new Map<string, SecretMask>();

  /**
   * The mask of these secrets, made once for the last few sets asked for:
   * failures (an MCP server's error, a plugin that cannot be opened) mask
   * with the secrets of an entry whose mask the caller does not hold, and
   * working the forms out again for each would cost more than the failure.
   */
  static of(secretValues: readonly string[]): SecretMask {
    const key = JSON.stringify(secretValues);
    let mask = SecretMask.#recent.get(key);
    if (mask === undefined) {
      mask = new SecretMask(secretValues);
      if (SecretMask.#recent.size >= recentMasks) SecretMask.#recent.delete(SecretMask.#recent.keys().next().value!);
      SecretMask.#recent.set(key, mask);
    }
    return mask;
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

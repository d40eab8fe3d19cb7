import { maskSecret, type SecretBox } from '../../security/secret-box.js';
import type { StoredSecret } from '../../storage/repositories/agents.js';

/**
 * The secrets of a plugin or platform entry as given on create or PATCH,
 * sealed for storage. A client that read the agent and sends it back
 * unchanged sends each secret's mask, which keeps the stored secret; but a
 * kept secret must never follow a changed config to a server it was not
 * given for (the caller may hold `agents:write` and not the secret). So a
 * mask keeps a stored secret only from an earlier entry of the same plugin
 * or platform type with the same destination (what the definition's
 * `secretDestination` reads from the config), and the mask of a secret whose
 * entry went elsewhere is refused: the secret must be given again.
 */

export type StoredSecrets = Record<string, StoredSecret>;

/** An earlier entry of the same plugin or platform type: where its secrets went, and what they are. */
export interface EarlierEntry {
  destination: unknown;
  secrets: StoredSecrets;
}

export interface SecretProblem {
  path: string;
  message: string;
}

/** JSON Pointer escaping (RFC 6901) of one reference token. */
const pointerToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * JSON with keys sorted at every level and undefined members left out, so
 * that a config written in another key order, or with an optional field
 * absent rather than undefined, is the same destination.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function sameDestination(one: unknown, other: unknown): boolean {
  return canonicalJson(one) === canonicalJson(other);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The config fields that moved the destination, as a refusal names them ("url", "baseUrl and url"). */
function changedFields(before: unknown, after: unknown): string {
  if (!isRecord(before) || !isRecord(after)) return 'destination';
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((name) => canonicalJson(before[name]) !== canonicalJson(after[name]))
    .sort();
  return names.length > 0 ? names.join(' and ') : 'destination';
}

/**
 * Seals an entry's secrets. `earlier` holds the stored entries of the same
 * plugin or platform type (none on create); a value equal to the mask of one
 * of their secrets of the same name keeps that secret if the entry has the
 * same destination, and is refused (a problem at `pointer`/secrets/<name>)
 * if it went elsewhere. Any other value is a new secret, as given.
 */
export function sealEntrySecrets(
  box: SecretBox,
  agentId: string,
  input: Record<string, string> | undefined,
  entry: { destination: () => unknown; earlier: readonly EarlierEntry[]; pointer: string },
  problems: SecretProblem[],
): StoredSecrets {
  const sealed: StoredSecrets = {};
  let destination: { value: unknown } | undefined;
  for (const [name, value] of Object.entries(input ?? {})) {
    const masked = entry.earlier.filter((earlier) => earlier.secrets[name]?.mask === value);
    if (masked.length === 0) {
      sealed[name] = { sealed: box.seal(value, agentId), mask: maskSecret(value) };
      continue;
    }
    // Read only when a mask was sent: entries given in clear, and every create, never need it.
    destination ??= { value: entry.destination() };
    const kept = masked.find((earlier) => sameDestination(earlier.destination, destination!.value));
    if (kept) {
      sealed[name] = kept.secrets[name]!;
      continue;
    }
    problems.push({
      path: `${entry.pointer}/secrets/${pointerToken(name)}`,
      message:
        `must be given again: the entry's ${changedFields(masked[0]!.destination, destination.value)} changed, ` +
        'and a kept secret is not sent to a new destination',
    });
  }
  return sealed;
}

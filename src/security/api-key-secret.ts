import { hash, randomInt } from 'node:crypto';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const randomLength = 40;

/** A new API key: `agd_` and 40 random base62 characters (about 238 bits). */
export function generateApiKey(): string {
  let body = '';
  for (let index = 0; index < randomLength; index += 1) body += base62[randomInt(base62.length)];
  return `agd_${body}`;
}

/**
 * Keys are stored as their SHA-256 digest. A salted slow hash is not needed for
 * 238-bit random secrets, and a fast digest keeps the per-request lookup cheap.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** The short, non-secret part shown in listings to recognise a key. */
export function displayPrefix(key: string): string {
  return key.slice(0, 10);
}

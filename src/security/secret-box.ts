import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM encryption of agent secrets at rest. The agent id is bound as
 * additional authenticated data, so a ciphertext copied to another agent fails
 * to decrypt. Format: `v1.` + base64url(iv ‖ ciphertext ‖ tag).
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('The secret key must be 32 bytes');
    this.#key = key;
  }

  seal(plaintext: string, associatedData: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url')}`;
  }

  open(sealed: string, associatedData: string): string {
    if (!sealed.startsWith('v1.')) throw new Error('Unknown secret format');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
  }
}

/**
 * What a client sees of a secret: bullets and the last four characters. Short
 * secrets would be revealed whole by that rule, so below 12 characters only the
 * bullets are shown.
 */
export function maskSecret(plaintext: string): string {
  return plaintext.length < 12 ? '••••' : `••••${plaintext.slice(-4)}`;
}

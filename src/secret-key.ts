import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The key that seals agent secrets. Embedded mode keeps it beside the database
 * (generated on first start, readable by the owner only); PostgreSQL mode
 * requires AGENTD_SECRET_KEY so that every instance shares it.
 */
export function loadOrCreateSecretKey(configured: Buffer | null, dataDir: string): { key: Buffer; created: boolean } {
  if (configured) return { key: configured, created: false };
  const file = path.join(dataDir, 'secret.key');
  try {
    const hex = fs.readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${file} does not hold 64 hexadecimal characters`);
    return { key: Buffer.from(hex, 'hex'), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return { key, created: true };
}

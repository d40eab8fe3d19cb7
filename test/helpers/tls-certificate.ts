import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCertificate {
  key: string;
  cert: string;
  /** The certificate in a PEM file, for NODE_EXTRA_CA_CERTS. */
  certPath: string;
  /** The key in a PEM file. */
  keyPath: string;
}

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made with Debian's
 * `openssl` for this run only (no key is kept in the repository).
 */
export function makeTestCertificate(): TestCertificate {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-tls-'));
  const keyPath = path.join(directory, 'key.pem');
  const certPath = path.join(directory, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(keyPath, 'utf8'), cert: fs.readFileSync(certPath, 'utf8'), certPath, keyPath };
}

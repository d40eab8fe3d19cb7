// Checks every log line a test run wrote (see test/helpers/suite-log.ts) for
// secrets: any full API key (agd_ and 32+ base62 characters, by shape, so
// keys created during the run need no list), the secret keys test apps used
// and the fixed secrets of test/helpers/known-secrets.ts. One pass per line
// with two regular expressions and a set lookup, so the cost grows with the
// log, not with the number of secrets.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const fullApiKey = /agd_[0-9A-Za-z]{32,}/;
const hexKey = /[0-9a-fA-F]{64}/g;
// The one place a key is shown on purpose: the boxed first-start banner of src/main.ts, outside the JSON log.
const bootstrapBanner = /^\|\s+agd_[0-9A-Za-z]{32,}\s+\|$/;

function escapeForPattern(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function masked(secret) {
  return `${secret.slice(0, 6)}… (${secret.length} characters)`;
}

/** Every line of every log file in `directory` that holds a secret, as "file:line: what". */
export async function findSecretsInLogs(directory) {
  if (!fs.existsSync(directory)) return [];
  const names = fs.readdirSync(directory);
  const hexSecrets = new Set();
  const fixed = new Set();
  for (const name of names.filter((name) => name.endsWith('.secrets'))) {
    for (const line of fs.readFileSync(path.join(directory, name), 'utf8').split('\n')) {
      if (line === '') continue;
      if (/^[0-9a-fA-F]{64}$/.test(line)) hexSecrets.add(line.toLowerCase());
      else fixed.add(line);
    }
  }
  const fixedPattern = fixed.size ? new RegExp([...fixed].map(escapeForPattern).join('|')) : null;
  const findings = [];
  for (const name of names.filter((name) => name.endsWith('.log')).sort()) {
    const file = path.join(directory, name);
    const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
    let number = 0;
    for await (const line of lines) {
      number += 1;
      const key = fullApiKey.exec(line);
      if (key && !bootstrapBanner.test(line.trim())) findings.push(`${file}:${number}: an API key ${masked(key[0])}`);
      const known = fixedPattern?.exec(line);
      if (known) findings.push(`${file}:${number}: a test secret ${masked(known[0])}`);
      for (const candidate of line.match(hexKey) ?? []) {
        if (hexSecrets.has(candidate.toLowerCase())) {
          findings.push(`${file}:${number}: an AGENTD_SECRET_KEY ${masked(candidate)}`);
        }
      }
    }
  }
  return findings;
}

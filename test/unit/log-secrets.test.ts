import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repositoryPath } from '../helpers/repository.js';

// A plain script of the test runner, without type declarations, taken from the repository: the compiled
// tests that `npm test` runs (.test-dist/) hold only what TypeScript emits.
const { findSecretsInLogs } = (await import(pathToFileURL(repositoryPath('scripts', 'log-secrets.mjs')).href)) as {
  findSecretsInLogs(directory: string): Promise<string[]>;
};

/** The check scripts/run-tests.mjs runs over a whole suite's logs, on a log written here. */
describe('the secrets check of the test logs', () => {
  function logDirectory(files: Record<string, string>): string {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-log-check-'));
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(directory, name), content);
    return directory;
  }

  it('names the file and line of a full API key, a listed secret and a secret key', async () => {
    const apiKey = `agd_${'A1b2'.repeat(10)}`;
    const secretKey = 'ab'.repeat(32);
    const directory = logDirectory({
      '1.secrets': `plugin-secret-value-0002\n${secretKey}\n`,
      'tests-1.log': [
        '{"msg":"request completed","status":200}',
        `{"msg":"oops","authorization":"Bearer ${apiKey}"}`,
        '{"msg":"tool","input":{"token":"plugin-secret-value-0002"}}',
        `{"msg":"config","key":"${secretKey}"}`,
      ].join('\n'),
    });
    try {
      const findings: string[] = await findSecretsInLogs(directory);
      assert.equal(findings.length, 3, findings.join('\n'));
      assert.match(findings[0] as string, /tests-1\.log:2: an API key agd_A1/);
      assert.match(findings[1] as string, /tests-1\.log:3: a test secret plugin/);
      assert.match(findings[2] as string, /tests-1\.log:4: an AGENTD_SECRET_KEY abab/);
      assert.ok(!findings.join('\n').includes(apiKey), 'the report does not repeat the secret');
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it('accepts key prefixes, hashes and the boxed first-start banner', async () => {
    const directory = logDirectory({
      '1.secrets': `${'cd'.repeat(32)}\n`,
      'server-1-2.log': [
        '{"msg":"key created","prefix":"agd_A1b2C3"}',
        `{"msg":"hash","hash":"${'ef'.repeat(32)}"}`,
        `|   agd_${'Z'.repeat(40)}   |`,
      ].join('\n'),
    });
    try {
      assert.deepEqual(await findSecretsInLogs(directory), []);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});

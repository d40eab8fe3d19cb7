import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { generateConfigurationDoc, generateDocs, readConfigVariables } from '../../scripts/docs-reference.js';
import { packageRoot } from '../../src/package-root.js';

describe('the generated references in docs/', () => {
  it('are what the current code generates (run `npm run docs:generate`)', async () => {
    for (const { file, text } of await generateDocs()) {
      const name = path.relative(packageRoot, file);
      assert.ok(fs.existsSync(file), `${name} is missing: run \`npm run docs:generate\` and commit it`);
      assert.ok(
        fs.readFileSync(file, 'utf8') === text,
        `${name} differs from a fresh generation: run \`npm run docs:generate\` and commit the result`,
      );
    }
  });

  it('take a variable’s type, range and default from the call in src/config.ts that reads it', () => {
    const variables = readConfigVariables(`
      export function loadConfig(env) {
        return {
          port: integer(env, 'PORT', 3000, 0, 65535),
          size: integer(env, 'AGENTD_MAX_IMAGE_BYTES', 5 * 1_048_576, 1024, 20 * 1_048_576),
          on: boolean(env, 'AGENTD_TASKS', true),
          host: read(env, 'HOST') ?? '127.0.0.1',
          url: httpUrl(env, 'AGENTD_PUBLIC_BASE_URL'),
        };
      }
      export function loadRemoteConfig(env) {
        return { apiKey: read(env, 'AGENTD_API_KEY') };
      }`);
    assert.deepEqual(variables, [
      { name: 'PORT', reader: 'integer', section: 'server', type: 'whole number, 0 to 65535', default: '3000' },
      {
        name: 'AGENTD_MAX_IMAGE_BYTES',
        reader: 'integer',
        section: 'server',
        type: 'whole number, 1024 to 20971520',
        default: '5242880',
      },
      { name: 'AGENTD_TASKS', reader: 'boolean', section: 'server', type: '`true` or `false`', default: 'true' },
      { name: 'HOST', reader: 'read', section: 'server', type: 'text', default: '127.0.0.1' },
      { name: 'AGENTD_PUBLIC_BASE_URL', reader: 'httpUrl', section: 'server', type: 'http(s) URL', default: null },
      { name: 'AGENTD_API_KEY', reader: 'read', section: 'remote', type: 'text', default: null },
    ]);
  });

  it('refuse a variable read without a description, and a description of a variable no longer read', () => {
    assert.throws(
      () =>
        generateConfigurationDoc([...readConfigVariables(), ...readConfigVariables("read(env, 'AGENTD_NEW_THING')")]),
      /AGENTD_NEW_THING is read by src\/config.ts but has no entry in src\/config-descriptions.ts/,
    );
    const withoutOllama = readConfigVariables().filter((variable) => variable.name !== 'OLLAMA_BASE_URL');
    assert.throws(
      () => generateConfigurationDoc(withoutOllama),
      /describes OLLAMA_BASE_URL, which src\/config.ts does not read/,
    );
  });

  it('list every AGENTD_ variable src/config.ts names', () => {
    const source = fs.readFileSync(path.join(packageRoot, 'src', 'config.ts'), 'utf8');
    const named = new Set(source.match(/'AGENTD_[A-Z0-9_]+'/g)!.map((quoted) => quoted.slice(1, -1)));
    const documented = fs.readFileSync(path.join(packageRoot, 'docs', 'configuration.md'), 'utf8');
    for (const name of named)
      assert.ok(documented.includes(`| \`${name}\` |`), `${name} is not in docs/configuration.md`);
  });
});

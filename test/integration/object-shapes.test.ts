import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { assertBuilt, mainScript } from '../helpers/server-process.js';

/**
 * V8 records each distinct first property given to an empty object `{}` as a
 * transition of the empty object's shape and keeps at most 1,536 of them; past
 * that, every such object (Node's header object of every request among them)
 * gets a shape of its own, and the server's throughput halves. Ajv's code
 * optimizer used to fill the table while the API's schemas compiled (see
 * src/schemas/json-schema-validator.ts). This builds the whole server in a
 * process where V8's own check is available and asks whether two objects
 * given the same new first property still share their shape.
 */
describe('object shapes after the server is built', () => {
  it('leaves room for new shapes of the empty object, so request headers share theirs', () => {
    assertBuilt();
    const dist = (file: string) => pathToFileURL(path.join(path.dirname(mainScript), file)).href;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-shapes-'));
    const script = `
      const sameShape = new Function('key', 'const a = {}; a[key] = 1; const b = {}; b[key] = 1; return %HaveSameMap(a, b);');
      const { loadConfig } = await import(${JSON.stringify(dist('config.js'))});
      const { createDependencies } = await import(${JSON.stringify(dist('dependencies.js'))});
      const { createLogger } = await import(${JSON.stringify(dist('logger.js'))});
      const { buildApp } = await import(${JSON.stringify(dist('app.js'))});
      const config = loadConfig({ AGENTD_DATA_DIR: ${JSON.stringify(dataDir)}, LOG_LEVEL: 'warn' });
      const deps = await createDependencies(config, { logger: createLogger('warn'), backgroundWork: false, dispatchWebhooks: false });
      const app = await buildApp({ config, deps });
      const keys = ['a-header-nobody-sends', 'host'];
      const shapes = JSON.stringify(Object.fromEntries(keys.map((key) => [key, sameShape(key)])));
      await app.close();
      process.stdout.write('\\n' + shapes + '\\n', () => process.exit(0));
    `;
    try {
      const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(run.status, 0, `${run.stderr}\n${run.stdout}`);
      const last = run.stdout.trim().split('\n').at(-1) ?? '';
      assert.deepEqual(JSON.parse(last), { 'a-header-nobody-sends': true, host: true });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

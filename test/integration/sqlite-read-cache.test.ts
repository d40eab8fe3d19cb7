import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { hashApiKey } from '../../src/security/api-key-secret.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

/**
 * On SQLite, the reads every request makes are answered from memory until
 * something changes. Writes through the service show at once; writes by
 * another connection to the same file (another process) show within a second.
 */
describe('SQLite committed-read cache', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t?.close());

  it("shows the service's own writes on the very next read", async () => {
    const created = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Before' } })).json();
    for (let round = 0; round < 3; round += 1) {
      const name = `After ${round}`;
      assert.equal(
        (await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).json().name,
        round === 0 ? 'Before' : `After ${round - 1}`,
      );
      await t.inject({ method: 'PATCH', url: `/v1/agents/${created.id}`, payload: { name } });
      assert.equal((await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).json().name, name);
    }
  });

  it("sees another connection's writes to the same file within a second", async () => {
    const created = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Original' } })).json();
    const key = await t.newKey(t.owner.accountId);
    assert.equal((await t.inject({ method: 'GET', url: `/v1/agents/${created.id}`, as: key })).statusCode, 200);

    const file = t.config.database.kind === 'sqlite' ? t.config.database.file : '';
    const other = new SqliteDatabase(file);
    try {
      other.prepare('update agents set name = ? where id = ?').run('Renamed elsewhere', created.id);
      other
        .prepare('update api_keys set revoked_at = ? where key_hash = ?')
        .run(new Date().toISOString(), hashApiKey(key.key));
    } finally {
      other.close();
    }

    const renamedAfter = await waitFor(
      async () =>
        (await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).json().name === 'Renamed elsewhere',
      1500,
      10,
    );
    assert.notEqual(renamedAfter, null, 'the rename shows within a second');
    const refusedAfter = await waitFor(
      async () => (await t.inject({ method: 'GET', url: '/v1/agents', as: key })).statusCode === 401,
      1500,
      10,
    );
    assert.notEqual(refusedAfter, null, 'the revocation holds within a second');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { scopes } from '../../src/services/context.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

for (const backend of backends) {
  describe(`API keys over HTTP on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
    });
    after(async () => t?.close());

    it('creates a key shown once that works at once, with all scopes by default', async () => {
      const account = await t.newAccount();
      const response = await t.inject({ method: 'POST', url: '/v1/api-keys', payload: { name: 'ci' }, as: account });
      assert.equal(response.statusCode, 201);
      const created = response.json();
      assert.match(created.key, /^agd_[0-9A-Za-z]{40}$/);
      assert.match(created.id, /^key_[0-9A-Z]{26}$/);
      assert.equal(created.name, 'ci');
      assert.deepEqual([...created.scopes].sort(), [...scopes].sort());
      assert.ok(created.key.startsWith(created.prefix));
      assert.ok(created.prefix.length < 16, 'the prefix does not reveal the key');

      const withNewKey = await t.app.inject({
        method: 'GET',
        url: '/v1/agents',
        headers: { authorization: `Bearer ${created.key}` },
      });
      assert.equal(withNewKey.statusCode, 200);

      const listed = await t.inject({ method: 'GET', url: '/v1/api-keys', as: account });
      assert.equal(listed.statusCode, 200);
      assert.ok(!listed.body.includes(created.key), 'listings never show keys');
      const entry = listed.json().data.find((key: { id: string }) => key.id === created.id);
      assert.deepEqual(Object.keys(entry).sort(), [
        'createdAt',
        'id',
        'lastUsedAt',
        'name',
        'prefix',
        'revokedAt',
        'scopes',
      ]);
      assert.equal(entry.revokedAt, null);
    });

    it('creates a key without a body', async () => {
      const response = await t.inject({ method: 'POST', url: '/v1/api-keys' });
      assert.equal(response.statusCode, 201);
      assert.equal(response.json().name, null);
    });

    it('grants only scopes the creating key holds', async () => {
      const account = await t.newAccount();
      const manager = await t.newKey(account.accountId, ['keys:manage', 'agents:read']);
      const narrow = await t.inject({
        method: 'POST',
        url: '/v1/api-keys',
        payload: { scopes: ['agents:read'] },
        as: manager,
      });
      assert.equal(narrow.statusCode, 201);
      assert.deepEqual(narrow.json().scopes, ['agents:read']);
      const escalation = await t.inject({
        method: 'POST',
        url: '/v1/api-keys',
        payload: { scopes: ['agents:delete'] },
        as: manager,
      });
      assert.equal(escalation.statusCode, 403);
      assert.equal(escalation.json().code, 'insufficient_scope');
      assert.match(escalation.json().detail, /agents:delete/);
      const inherited = await t.inject({ method: 'POST', url: '/v1/api-keys', payload: {}, as: manager });
      assert.deepEqual([...inherited.json().scopes].sort(), ['agents:read', 'keys:manage']);
    });

    it('validates names and scopes', async () => {
      for (const payload of [
        { scopes: ['agents:fly'] },
        { scopes: [] },
        { name: '' },
        { name: 'x', extra: 1 },
        { scopes: ['agents:read', 'agents:read'] },
      ]) {
        const response = await t.inject({ method: 'POST', url: '/v1/api-keys', payload });
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.equal(response.json().code, 'validation_failed');
      }
    });

    it('revokes a key from the next request on, and only once', async () => {
      const account = await t.newAccount();
      const doomed = await t.newKey(account.accountId);
      assert.equal((await t.inject({ method: 'GET', url: '/v1/agents', as: doomed })).statusCode, 200);
      const revoked = await t.inject({ method: 'DELETE', url: `/v1/api-keys/${doomed.keyId}`, as: account });
      assert.equal(revoked.statusCode, 200);
      assert.deepEqual(revoked.json(), { id: doomed.keyId, revoked: true });
      assert.equal((await t.inject({ method: 'GET', url: '/v1/agents', as: doomed })).statusCode, 401);
      assert.equal(
        (await t.inject({ method: 'DELETE', url: `/v1/api-keys/${doomed.keyId}`, as: account })).statusCode,
        404,
      );
      const listed = (await t.inject({ method: 'GET', url: '/v1/api-keys', as: account })).json();
      assert.ok(!listed.data.some((key: { id: string }) => key.id === doomed.keyId));
      assert.equal(
        (await t.inject({ method: 'GET', url: '/v1/agents', as: account })).statusCode,
        200,
        'other keys keep working',
      );
    });

    it('tells when each key was last used, and lists revoked keys when asked', async () => {
      const account = await t.newAccount();
      const idle = await t.newKey(account.accountId);
      const used = await t.newKey(account.accountId);
      const before = new Date().toISOString();
      assert.equal((await t.inject({ method: 'GET', url: '/v1/agents', as: used })).statusCode, 200);
      const listed = () => t.inject({ method: 'GET', url: '/v1/api-keys', as: account }).then((r) => r.json().data);
      const entryOf = (keys: Array<{ id: string }>, keyId: string): any => keys.find((key) => key.id === keyId);
      // Recorded after the answer, without holding the request up.
      const lastUsedAt = await eventually(async () => entryOf(await listed(), used.keyId).lastUsedAt, 'lastUsedAt');
      assert.ok(lastUsedAt >= before, `${lastUsedAt} is the time of the request`);
      assert.equal(entryOf(await listed(), idle.keyId).lastUsedAt, null);

      await t.inject({ method: 'DELETE', url: `/v1/api-keys/${idle.keyId}`, as: account });
      assert.equal(entryOf(await listed(), idle.keyId), undefined, 'revoked keys are not listed by default');
      const all = await t.inject({ method: 'GET', url: '/v1/api-keys?include=revoked', as: account });
      const revoked = entryOf(all.json().data, idle.keyId);
      assert.match(revoked.revokedAt, /^\d{4}-\d\d-\d\dT/);
      assert.equal(entryOf(all.json().data, used.keyId).revokedAt, null);
      const wrong = await t.inject({ method: 'GET', url: '/v1/api-keys?include=everything', as: account });
      assert.equal(wrong.statusCode, 400);
      assert.equal(wrong.json().code, 'validation_failed');
    });

    it('lets a key revoke itself', async () => {
      const account = await t.newAccount();
      const self = await t.newKey(account.accountId);
      assert.equal((await t.inject({ method: 'DELETE', url: `/v1/api-keys/${self.keyId}`, as: self })).statusCode, 200);
      assert.equal((await t.inject({ method: 'GET', url: '/v1/api-keys', as: self })).statusCode, 401);
    });

    it('stores only a hash of the key', async () => {
      const created = (await t.inject({ method: 'POST', url: '/v1/api-keys', payload: { name: 'hashed' } })).json();
      const row = await t.deps.database.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      assert.ok(!Object.values(row).some((value) => typeof value === 'string' && value.includes(created.key)));
      assert.match(row.key_hash, /^[0-9a-f]{64}$/);
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Agents and keys read again are reused only while every stored column is
 * unchanged: a change shows on the next page or read even when it leaves the
 * version as it was (a write outside the service).
 */
for (const backend of backends) {
  describe(`list pages after changes on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
    });
    after(async () => t?.close());

    const firstName = async () =>
      (await t.inject({ method: 'GET', url: '/v1/agents?limit=3' })).json().data[0].name as string;

    it('shows a change on the next page, with or without a new version', async () => {
      const created = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Kept' } })).json();
      assert.equal(await firstName(), 'Kept');
      assert.equal(await firstName(), 'Kept');

      await t.inject({ method: 'PATCH', url: `/v1/agents/${created.id}`, payload: { name: 'Patched' } });
      assert.equal(await firstName(), 'Patched');

      await t.deps.database.db
        .updateTable('agents')
        .set({
          profile: JSON.stringify({
            ...(await t.deps.services.repositories.agents.find(t.owner.accountId, created.id))!.profile,
            bio: ['Changed in place.'],
          }),
        })
        .where('id', '=', created.id)
        .execute();
      const page = (await t.inject({ method: 'GET', url: '/v1/agents?limit=3' })).json();
      assert.deepEqual(page.data[0].bio, ['Changed in place.']);
    });

    it('shows a change in place on the next single read of the agent', async () => {
      const created = await t.newAgent({ name: 'Single', bio: ['First.'] });
      const read = async () => (await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).json();
      assert.deepEqual((await read()).bio, ['First.']);
      assert.deepEqual((await read()).bio, ['First.']);

      const stored = (await t.deps.services.repositories.agents.find(t.owner.accountId, created.id))!;
      await t.deps.database.db
        .updateTable('agents')
        .set({ profile: JSON.stringify({ ...stored.profile, bio: ['Changed in place.'] }) })
        .where('id', '=', created.id)
        .execute();
      const changed = await read();
      assert.deepEqual(changed.bio, ['Changed in place.']);
      assert.equal(changed.version, created.version);
    });

    it("applies a key's changed scopes and its revocation at its next request", async () => {
      const caller = await t.newKey(t.owner.accountId, ['agents:read', 'agents:write']);
      const list = () => t.inject({ method: 'GET', url: '/v1/agents?limit=1', as: caller });
      assert.equal((await list()).statusCode, 200);
      assert.equal((await list()).statusCode, 200);

      await t.deps.database.db
        .updateTable('api_keys')
        .set({ scopes: 'agents:write' })
        .where('id', '=', caller.keyId)
        .execute();
      const refused = await list();
      assert.equal(refused.statusCode, 403, refused.body);

      await t.deps.database.db
        .updateTable('api_keys')
        .set({ scopes: 'agents:read agents:write' })
        .where('id', '=', caller.keyId)
        .execute();
      assert.equal((await list()).statusCode, 200);

      await t.deps.database.db
        .updateTable('api_keys')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', caller.keyId)
        .execute();
      assert.equal((await list()).statusCode, 401);
    });
  });
}

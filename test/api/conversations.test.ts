import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/** GET /v1/agents/{agentId}/conversations: the users and rooms a client can pick for history and memory. */
for (const backend of backends) {
  describe(`conversations list on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
    });
    after(async () => t?.close());

    const send = (agentId: string, payload: Record<string, unknown>) =>
      t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload });
    const list = (agentId: string, query = '') =>
      t.inject({ method: 'GET', url: `/v1/agents/${agentId}/conversations${query}` });

    it('lists private conversations and rooms, newest first, a page at a time', async () => {
      const agent = await t.newAgent({});
      assert.deepEqual((await list(agent.id)).json().data, []);
      for (const message of [
        { text: 'hello', userId: 'ana' },
        { text: 'hello all', userId: 'ben', roomId: 'lobby' },
        { text: 'hello again', userId: 'cid' },
      ]) {
        assert.equal((await send(agent.id, message)).statusCode, 200);
      }
      const all = await list(agent.id);
      assert.equal(all.statusCode, 200, all.body);
      assert.deepEqual(
        all.json().data.map((entry: any) => [entry.userId, entry.roomId, entry.turns]),
        [
          ['cid', null, 2],
          [null, 'lobby', 2],
          ['ana', null, 2],
        ],
      );

      const first = (await list(agent.id, '?limit=2')).json();
      assert.equal(first.pagination.hasMore, true);
      const second = (await list(agent.id, `?limit=2&cursor=${first.pagination.nextCursor}`)).json();
      assert.deepEqual(
        [...first.data, ...second.data].map((entry: any) => entry.userId ?? entry.roomId),
        ['cid', 'lobby', 'ana'],
      );
      assert.equal(second.pagination.hasMore, false);
      assert.equal(second.pagination.nextCursor, null);
    });

    it('keeps a user whose turns were forgotten while their facts stay, and drops them with the facts', async () => {
      const agent = await t.newAgent({});
      await send(agent.id, { text: 'hello', userId: 'dee' });
      const fact = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}/memory?userId=dee`,
        payload: { facts: [{ subject: 'name', statement: 'is called Dee' }] },
      });
      assert.equal(fact.statusCode, 200, fact.body);
      await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}/conversations?userId=dee` });
      assert.deepEqual(
        (await list(agent.id)).json().data.map((entry: any) => [entry.userId, entry.turns]),
        [['dee', 0]],
      );
      await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}/conversations?userId=dee&facts=true` });
      assert.deepEqual((await list(agent.id)).json().data, []);
    });

    it('refuses a cursor it did not issue, and answers 404 for an unknown agent', async () => {
      const agent = await t.newAgent({});
      const bad = await list(agent.id, '?cursor=bm90LWEtY3Vyc29y');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().errors[0].path, '/query/cursor');
      assert.equal((await list('agt_01HZZZZZZZZZZZZZZZZZZZZZZZ')).statusCode, 404);
    });
  });
}

import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createAgentdClient } from '../../src/client/index.js';
import { backends, createTestApp, type TestAccount, type TestApp } from '../helpers/test-app.js';

/**
 * GET /v1/approvals: what waits for a decision across all the account's
 * agents, in the shape and pages of one agent's list. The builtin model asks
 * for a tool with a `/tool NAME {json}` line, so no provider is needed.
 */
for (const backend of backends) {
  describe(`the account's approvals on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
    });
    after(async () => {
      await t?.close();
    });

    const guardedAgent = (name: string, as: TestAccount = t.owner) =>
      t
        .inject({
          method: 'POST',
          url: '/v1/agents',
          payload: { name, plugins: [{ name: 'math', approval: { tools: ['calculate'] } }] },
          as,
        })
        .then((response) => {
          assert.equal(response.statusCode, 201, response.body);
          return response.json() as { id: string };
        });
    const pause = async (agentId: string, expression: string, as: TestAccount = t.owner) => {
      const response = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agentId}/messages`,
        payload: { text: `/tool calculate {"expression":"${expression}"}`, userId: 'u1' },
        as,
      });
      assert.equal(response.statusCode, 200, response.body);
      const reply = response.json();
      assert.equal(reply.finishReason, 'approval_required');
      return reply.approvals[0].approvalId as string;
    };
    const list = async (query: string, as: TestAccount = t.owner) => {
      const response = await t.inject({ method: 'GET', url: `/v1/approvals${query}`, as });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };

    it("lists every agent's pending approvals, newest first, in pages, and never another account's", async () => {
      const stranger = await t.newAccount();
      const theirs = await guardedAgent('Theirs', stranger);
      await pause(theirs.id, '9*9', stranger);
      const first = await guardedAgent('First');
      const second = await guardedAgent('Second');
      const older = await pause(first.id, '1+1');
      const newer = await pause(second.id, '2+2');

      const pending = await list('?status=pending');
      assert.deepEqual(
        pending.data.map((approval: { id: string; agentId: string }) => [approval.id, approval.agentId]),
        [
          [newer, second.id],
          [older, first.id],
        ],
      );
      assert.equal(pending.data[0].name, 'calculate');
      assert.deepEqual(pending.data[0].input, { expression: '2+2' });
      assert.deepEqual(pending.pagination, { limit: 20, hasMore: false, nextCursor: null });

      const firstPage = await list('?status=pending&limit=1');
      assert.deepEqual(
        firstPage.data.map((approval: { id: string }) => approval.id),
        [newer],
      );
      assert.equal(firstPage.pagination.hasMore, true);
      const secondPage = await list(
        `?status=pending&limit=1&cursor=${encodeURIComponent(firstPage.pagination.nextCursor)}`,
      );
      assert.deepEqual(
        secondPage.data.map((approval: { id: string }) => approval.id),
        [older],
      );
      assert.equal(secondPage.pagination.hasMore, false);

      const decided = await t.inject({
        method: 'POST',
        url: `/v1/agents/${first.id}/approvals/${older}`,
        payload: { decision: 'deny', reason: 'not today' },
      });
      assert.equal(decided.statusCode, 200, decided.body);
      assert.deepEqual(
        (await list('?status=pending')).data.map((approval: { id: string }) => approval.id),
        [newer],
        'a decided approval leaves the pending list',
      );
      assert.deepEqual(
        (await list('?status=denied')).data.map((approval: { id: string; reason: string }) => [
          approval.id,
          approval.reason,
        ]),
        [[older, 'not today']],
      );
      assert.equal((await list('?status=pending', stranger)).data.length, 1, 'the stranger sees only their own');

      // The typed client follows the pages.
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const client = createAgentdClient({
        baseUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`,
        apiKey: t.owner.key,
      });
      const listed: string[] = [];
      for await (const approval of client.approvals.listAll({ limit: 1 })) listed.push(approval.id);
      assert.deepEqual(listed, [newer, older]);
    });

    it('refuses a status it does not know and a cursor it did not give, with a problem', async () => {
      for (const query of ['?status=maybe', '?cursor=nonsense', '?limit=0']) {
        const response = await t.inject({ method: 'GET', url: `/v1/approvals${query}` });
        assert.equal(response.statusCode, 400, query);
        assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
        assert.equal(response.json().code, 'validation_failed', query);
      }
    });
  });
}

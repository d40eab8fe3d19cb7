import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/** Messages, history and forgetting with the builtin model, which needs no provider. */
for (const backend of backends) {
  describe(`messages API on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
    });
    after(async () => t?.close());

    const newAgent = (fields: Record<string, unknown> = {}) => t.newAgent(fields);
    const send = (agentId: string, payload: Record<string, unknown>) =>
      t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload });
    const history = (agentId: string, query = '') =>
      t.inject({ method: 'GET', url: `/v1/agents/${agentId}/messages${query}` });

    it('answers with the reply object of the contract', async () => {
      const agent = await newAgent({ bio: 'Ava is a DeFi research assistant.' });
      const response = await send(agent.id, { text: 'Hello there', userId: 'u1' });
      assert.equal(response.statusCode, 200, response.body);
      const reply = response.json();
      assert.match(reply.id, /^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
      assert.match(reply.runId, /^run_[0-9A-HJKMNP-TV-Z]{26}$/);
      assert.deepEqual(Object.keys(reply).sort(), [
        'agentId',
        'attachments',
        'citations',
        'createdAt',
        'finishReason',
        'id',
        'latencyMs',
        'model',
        'roomId',
        'runId',
        'text',
        'toolCalls',
        'usage',
        'userId',
      ]);
      assert.equal(reply.agentId, agent.id);
      assert.equal(reply.userId, 'u1');
      assert.equal(reply.roomId, null);
      assert.equal(reply.finishReason, 'stop');
      assert.deepEqual(reply.model, { provider: 'builtin', name: 'echo' });
      assert.ok(reply.text.includes("I'm Ava") && reply.text.includes('DeFi research assistant'));
      assert.ok(reply.text.includes('not a language model'));
      assert.equal(reply.usage.totalTokens, reply.usage.inputTokens + reply.usage.outputTokens);
      assert.ok(Number.isInteger(reply.latencyMs) && reply.latencyMs >= 0);
      assert.ok(response.headers['x-ratelimit-limit']);
    });

    it('retrieves the knowledge relevant to the message, and follows knowledge changes', async () => {
      const agent = await newAgent({
        knowledge: ['Gas is paid in ETH.', { title: 'Bridges', content: 'Bridges move tokens between chains.' }],
      });
      const gas = (await send(agent.id, { text: 'what pays for gas?' })).json();
      assert.ok(gas.text.includes('Gas is paid in ETH.'));
      assert.ok(!gas.text.includes('Bridges'));
      const bridge = (await send(agent.id, { text: 'How do bridges work?' })).json();
      assert.ok(bridge.text.includes('Bridges: Bridges move tokens between chains.'));

      await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { knowledge: ['Gas is paid in SOL here.'] },
      });
      const changed = (await send(agent.id, { text: 'what pays for gas?' })).json();
      assert.ok(changed.text.includes('Gas is paid in SOL here.'));
      assert.ok(!changed.text.includes('in ETH'));
    });

    it('keeps knowledge of one agent away from another', async () => {
      await newAgent({ knowledge: ['The vault code is 1234.'] });
      const other = await newAgent({ knowledge: ['Nothing to see.'] });
      const reply = (await send(other.id, { text: 'what is the vault code?' })).json();
      assert.ok(!reply.text.includes('1234'));
    });

    it('remembers a private conversation and pages its history newest first', async () => {
      const agent = await newAgent();
      for (const text of ['one', 'two', 'three'])
        assert.equal((await send(agent.id, { text, userId: 'pat' })).statusCode, 200);
      const firstPage = (await history(agent.id, '?userId=pat&limit=4')).json();
      assert.deepEqual(
        firstPage.data.map((turn: { role: string }) => turn.role),
        ['agent', 'user', 'agent', 'user'],
      );
      assert.deepEqual(
        firstPage.data
          .filter((turn: { role: string }) => turn.role === 'user')
          .map((turn: { text: string }) => turn.text),
        ['three', 'two'],
      );
      assert.equal(firstPage.data[0].finishReason, 'stop');
      assert.equal(firstPage.data[1].finishReason, undefined);
      assert.equal(firstPage.pagination.hasMore, true);
      const secondPage = (
        await history(agent.id, `?userId=pat&limit=4&cursor=${firstPage.pagination.nextCursor}`)
      ).json();
      assert.deepEqual(
        secondPage.data.map((turn: { text: string }) => turn.text.slice(0, 5)),
        [secondPage.data[0].text.slice(0, 5), 'one'],
      );
      assert.equal(secondPage.pagination.hasMore, false);
      assert.equal(secondPage.pagination.nextCursor, null);
      const reply = (await send(agent.id, { text: 'four', userId: 'pat' })).json();
      assert.ok(reply.text.includes('Earlier you said: “three”'), reply.text);
    });

    it('refuses a cursor issued for another conversation', async () => {
      const agent = await newAgent();
      await send(agent.id, { text: 'a', userId: 'x' });
      await send(agent.id, { text: 'b', userId: 'x' });
      const page = (await history(agent.id, '?userId=x&limit=1')).json();
      const response = await history(agent.id, `?userId=y&cursor=${page.pagination.nextCursor}`);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().errors[0].path, '/query/cursor');
    });

    it('stores nothing for a message without userId or roomId', async () => {
      const agent = await newAgent();
      assert.equal((await send(agent.id, { text: 'anonymous' })).statusCode, 200);
      assert.deepEqual((await history(agent.id)).json().data, []);
    });

    it('shares a room between users, labelled, and forgets by room or by user', async () => {
      const agent = await newAgent();
      await send(agent.id, { text: 'hi from ann', userId: 'ann', roomId: 'lobby' });
      await send(agent.id, { text: 'hi from bob', userId: 'bob', roomId: 'lobby' });
      await send(agent.id, { text: 'private ann', userId: 'ann' });
      const room = (await history(agent.id, '?roomId=lobby')).json().data;
      assert.equal(room.length, 4);
      assert.deepEqual(new Set(room.map((turn: { userId: string }) => turn.userId)), new Set(['ann', 'bob']));
      assert.ok(room.every((turn: { roomId: string }) => turn.roomId === 'lobby'));
      const annInRoom = (await history(agent.id, '?roomId=lobby&userId=ann')).json().data;
      assert.deepEqual(
        annInRoom.map((turn: { role: string }) => turn.role),
        ['agent', 'user'],
      );
      assert.equal((await history(agent.id)).json().data.length, 6);

      const forgetBob = await t.inject({
        method: 'DELETE',
        url: `/v1/agents/${agent.id}/conversations?roomId=lobby&userId=bob`,
      });
      assert.deepEqual(forgetBob.json(), { deleted: 2 });
      const forgetRoom = await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}/conversations?roomId=lobby` });
      assert.deepEqual(forgetRoom.json(), { deleted: 2 });
      assert.equal((await history(agent.id, '?userId=ann')).json().data.length, 2, 'the private conversation stays');
      const forgetAnn = await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}/conversations?userId=ann` });
      assert.deepEqual(forgetAnn.json(), { deleted: 2 });
      assert.deepEqual((await history(agent.id)).json().data, []);
    });

    it('refuses to forget without naming a conversation', async () => {
      const agent = await newAgent();
      const response = await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}/conversations` });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'validation_failed');
    });

    it('removes conversations and the knowledge index with the agent', async () => {
      const agent = await newAgent({ knowledge: ['Gas is paid in ETH.'] });
      await send(agent.id, { text: 'hello', userId: 'u1' });
      assert.equal((await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}` })).statusCode, 200);
      const db = t.deps.database.db;
      assert.equal((await db.selectFrom('messages').select('id').where('agent_id', '=', agent.id).execute()).length, 0);
      assert.equal(
        (await db.selectFrom('knowledge_items').select('position').where('agent_id', '=', agent.id).execute()).length,
        0,
      );
      assert.equal((await history(agent.id)).statusCode, 404);
    });

    it('validates messages strictly and changes nothing on a bad one', async () => {
      const agent = await newAgent();
      const cases: Array<[string, Record<string, unknown>]> = [
        ['/body/text', { text: '' }],
        ['/body/text', { text: 'x'.repeat(32_001) }],
        ['/body/userId', { text: 'x', userId: 'u'.repeat(201) }],
        ['/body/roomId', { text: 'x', roomId: '' }],
        ['/body/context', { text: 'x', context: 'not an object' }],
        ['/body/context', { text: 'x', userId: 'v', context: { blob: 'x'.repeat(17_000) } }],
        ['/body/stream', { text: 'x', stream: 'yes' }],
        ['/body/colour', { text: 'x', colour: 'red' }],
      ];
      for (const [path, payload] of cases) {
        const response = await send(agent.id, payload);
        assert.equal(response.statusCode, 400, path);
        assert.ok(
          response.json().errors.some((error: { path: string }) => error.path === path),
          `${path}: ${response.body}`,
        );
      }
      assert.deepEqual((await history(agent.id)).json().data, []);
      assert.equal((await history(agent.id, '?limit=101')).statusCode, 400);
    });

    it("hides other accounts' agents and needs the right scopes", async () => {
      const agent = await newAgent();
      const other = await t.newAccount();
      for (const request of [
        { method: 'POST' as const, url: `/v1/agents/${agent.id}/messages`, payload: { text: 'hi' } },
        { method: 'GET' as const, url: `/v1/agents/${agent.id}/messages` },
        { method: 'DELETE' as const, url: `/v1/agents/${agent.id}/conversations?userId=u` },
      ]) {
        const response = await t.inject({ ...request, as: other });
        assert.equal(response.statusCode, 404, request.url);
      }
      const readOnly = await t.newKey(t.owner.accountId, ['agents:read']);
      const refused = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: 'hi' },
        as: readOnly,
      });
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().detail, /messages:send/);
      const noKey = await t.app.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: 'hi' },
      });
      assert.equal(noKey.statusCode, 401);
    });

    it('answers 503 agent_unavailable for an inactive agent, with the reason, and again after PATCH to active', async () => {
      const agent = await newAgent({ status: 'inactive' });
      const refused = await send(agent.id, { text: 'hi', userId: 'u1' });
      assert.equal(refused.statusCode, 503);
      assert.equal(refused.json().code, 'agent_unavailable');
      assert.match(refused.json().detail, /inactive/);
      assert.deepEqual((await history(agent.id)).json().data, []);
      await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'active' } });
      assert.equal((await send(agent.id, { text: 'hi' })).statusCode, 200);
    });

    it('describes the message routes in the OpenAPI document', async () => {
      const document = (await t.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
      const sendOperation = document.paths['/v1/agents/{agentId}/messages'].post;
      assert.ok(sendOperation.responses['200'].content['text/event-stream']);
      assert.ok(sendOperation.responses['503']);
      assert.ok(document.paths['/v1/agents/{agentId}/messages'].get);
      assert.ok(document.paths['/v1/agents/{agentId}/conversations'].delete);
    });
  });
}

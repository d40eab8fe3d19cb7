import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { backends, createTestApp, generousRateLimits, ManualClock, type TestApp } from '../helpers/test-app.js';

const dayMs = 24 * 60 * 60 * 1000;

/** Each agent's lifecycle and audit trail: GET /v1/agents/{agentId}/events. */
for (const backend of backends) {
  describe(`agent event trail on ${backend.name}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    let clock: ManualClock;
    before(async () => {
      fake = await startFakeOpenAiServer();
      clock = new ManualClock(Date.now());
      t = await createTestApp({
        backend: backend.name,
        clock,
        env: {
          AGENTD_RATE_LIMITS: `${generousRateLimits},listEvents=100000`,
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
          AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
          AGENTD_EVENT_RETENTION_DAYS: '30',
        },
      });
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });

    const events = (agentId: string, query = '', as = t.owner) =>
      t.inject({ method: 'GET', url: `/v1/agents/${agentId}/events${query}`, as });
    const trail = async (agentId: string) => {
      const response = await events(agentId);
      assert.equal(response.statusCode, 200, response.body);
      return response.json().data as Array<{ type: string; data: any; actor: string; requestId: string | null }>;
    };
    const patch = (agentId: string, payload: Record<string, unknown>) =>
      t.inject({ method: 'PATCH', url: `/v1/agents/${agentId}`, payload });

    it('records the creation, by the key that made it and in its request', async () => {
      const created = await t.inject({
        method: 'POST',
        url: '/v1/agents',
        headers: { 'x-request-id': 'create-with-trail' },
        payload: { name: 'Traced' },
      });
      assert.equal(created.statusCode, 201);
      const [event, ...rest] = await trail(created.json().id);
      assert.equal(rest.length, 0);
      assert.equal(event!.type, 'agent.created');
      assert.equal(event!.actor, t.owner.keyId);
      assert.equal(event!.requestId, 'create-with-trail');
      assert.deepEqual(event!.data, { name: 'Traced', status: 'active' });
    });

    it('records an idempotent create once, however often it is replayed', async () => {
      const request = {
        method: 'POST' as const,
        url: '/v1/agents',
        headers: { 'idempotency-key': `events-${backend.name}` },
        payload: { name: 'Once' },
      };
      const first = await t.inject(request);
      const replay = await t.inject(request);
      assert.equal(first.statusCode, 201);
      assert.equal(replay.json().id, first.json().id);
      assert.deepEqual(
        (await trail(first.json().id)).map((event) => event.type),
        ['agent.created'],
      );
    });

    it('names the fields a PATCH changed', async () => {
      const agent = await t.newAgent();
      assert.equal((await patch(agent.id, { name: 'Renamed', bio: 'A new bio' })).statusCode, 200);
      const [updated] = await trail(agent.id);
      assert.equal(updated!.type, 'agent.updated');
      assert.deepEqual(updated!.data.fields.sort(), ['bio', 'name']);
    });

    it('records a changed plugin secret by name, never its value', async () => {
      const plugin = (apiKey: string) => ({
        name: 'mcp',
        config: { url: 'http://127.0.0.1:9/mcp' },
        secrets: { apiKey },
      });
      const agent = await t.newAgent({ plugins: [plugin('first-plugin-secret-0001')] });
      const patched = await patch(agent.id, { plugins: [plugin('rotated-plugin-secret-0002')] });
      assert.equal(patched.statusCode, 200);
      const masks = [agent.plugins[0].secrets.apiKey, patched.json().plugins[0].secrets.apiKey];
      const response = await events(agent.id);
      for (const secret of ['first-plugin-secret-0001', 'rotated-plugin-secret-0002', ...masks]) {
        assert.ok(!response.body.includes(secret), `the trail must not contain ${secret}`);
      }
      const [updated] = response.json().data;
      assert.deepEqual(updated.data.fields, ['plugins']);
      assert.deepEqual(updated.data.plugins, [{ entry: 'mcp:mcp', change: 'changed', secretsChanged: ['apiKey'] }]);
    });

    it('records a status change by the owner with its reason', async () => {
      const agent = await t.newAgent();
      assert.equal((await patch(agent.id, { status: 'inactive' })).statusCode, 200);
      const [statusChanged, updated] = await trail(agent.id);
      assert.equal(statusChanged!.type, 'agent.status_changed');
      assert.deepEqual(statusChanged!.data, {
        from: 'active',
        to: 'inactive',
        reason: 'updated by its owner',
        by: 'owner',
      });
      assert.equal(statusChanged!.actor, t.owner.keyId);
      assert.equal(updated!.type, 'agent.updated');
      assert.deepEqual(updated!.data.fields, ['status']);
    });

    it('records the service putting the agent in error when its provider rejects the credentials', async () => {
      const agent = await t.newAgent();
      fake.enqueue({ status: 401, errorMessage: 'Incorrect API key provided' });
      const sent = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        headers: { 'x-request-id': 'rejected-credentials' },
        payload: { text: 'hi', userId: 'u1' },
      });
      assert.equal(sent.statusCode, 503);
      const [statusChanged] = await trail(agent.id);
      assert.equal(statusChanged!.type, 'agent.status_changed');
      assert.equal(statusChanged!.actor, 'service');
      assert.equal(statusChanged!.requestId, 'rejected-credentials');
      assert.equal(statusChanged!.data.by, 'service');
      assert.equal(statusChanged!.data.from, 'active');
      assert.equal(statusChanged!.data.to, 'error');
      assert.match(statusChanged!.data.reason, /rejected the credentials \(HTTP 401\)/);
    });

    it('writes no event for a change that was refused', async () => {
      const agent = await t.newAgent();
      const refused = await patch(agent.id, { plugins: [{ name: 'math' }, { name: 'math' }] });
      assert.equal(refused.statusCode, 400);
      const unchanged = await patch(agent.id, { name: agent.name });
      assert.equal(unchanged.statusCode, 200);
      assert.deepEqual(
        (await trail(agent.id)).map((event) => event.type),
        ['agent.created'],
      );
    });

    it('rolls the event back with a change that fails after it was written', async () => {
      const agent = await t.newAgent();
      const repository = t.deps.services.repositories.agentEvents;
      const insert = repository.insert;
      repository.insert = async (event, executor) => {
        await insert.call(repository, event, executor);
        throw new Error('the transaction fails after the event was written');
      };
      let failed;
      try {
        failed = await patch(agent.id, { name: 'Never' });
      } finally {
        repository.insert = insert;
      }
      assert.equal(failed.statusCode, 500);
      assert.equal((await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` })).json().name, agent.name);
      assert.deepEqual(
        (await trail(agent.id)).map((event) => event.type),
        ['agent.created'],
      );
    });

    it('pages newest first by cursor', async () => {
      const agent = await t.newAgent();
      for (const name of ['One', 'Two', 'Three', 'Four'])
        assert.equal((await patch(agent.id, { name })).statusCode, 200);
      const seen: string[] = [];
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const response = await events(agent.id, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        assert.ok(body.data.length <= 2);
        for (const event of body.data) {
          ids.push(event.id);
          seen.push(event.type === 'agent.updated' ? `renamed` : event.type);
        }
        cursor = body.pagination.nextCursor;
      } while (cursor !== null);
      assert.deepEqual(seen, ['renamed', 'renamed', 'renamed', 'renamed', 'agent.created']);
      assert.deepEqual(ids, [...ids].sort().reverse(), 'newest first');
      assert.equal(new Set(ids).size, 5);
      const bad = await events(agent.id, '?cursor=not-a-cursor');
      assert.equal(bad.statusCode, 400);
    });

    it("lists the account's events across agents, narrowed by agent and type, in the same pages", async () => {
      const owner = await t.newAccount();
      const accountEvents = (query: string, as = owner) => t.inject({ method: 'GET', url: `/v1/events${query}`, as });
      const create = async (name: string) => {
        const created = await t.inject({ method: 'POST', url: '/v1/agents', payload: { name }, as: owner });
        assert.equal(created.statusCode, 201, created.body);
        return created.json() as { id: string };
      };
      const first = await create('First');
      const second = await create('Second');
      for (const name of ['First again', 'First once more']) {
        const renamed = await t.inject({
          method: 'PATCH',
          url: `/v1/agents/${first.id}`,
          payload: { name },
          as: owner,
        });
        assert.equal(renamed.statusCode, 200, renamed.body);
      }

      const all = (await accountEvents('')).json();
      assert.deepEqual(
        all.data.map((event: any) => [event.agentId, event.type]),
        [
          [first.id, 'agent.updated'],
          [first.id, 'agent.updated'],
          [second.id, 'agent.created'],
          [first.id, 'agent.created'],
        ],
      );
      // The same shape as one agent's trail.
      const own = (await events(second.id, '', owner)).json();
      assert.deepEqual(own.data[0], all.data[2]);

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const response = await accountEvents(`?agentId=${first.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        for (const event of body.data) seen.push(`${event.agentId === first.id ? 'first' : 'other'} ${event.type}`);
        cursor = body.pagination.nextCursor;
      } while (cursor !== null);
      assert.deepEqual(seen, ['first agent.updated', 'first agent.updated', 'first agent.created']);

      const created = (await accountEvents('?type=agent.created')).json();
      assert.deepEqual(
        created.data.map((event: any) => event.agentId),
        [second.id, first.id],
      );
      const both = (await accountEvents(`?type=agent.created&agentId=${second.id}`)).json();
      assert.deepEqual(
        both.data.map((event: any) => event.agentId),
        [second.id],
      );

      // Another account's events are never listed, whatever the filter says.
      assert.deepEqual((await accountEvents(`?agentId=${first.id}`, t.owner)).json().data, []);
      const unknownType = await accountEvents('?type=agent.exploded');
      assert.equal(unknownType.statusCode, 400);
      assert.equal(unknownType.json().errors[0].path, '/query/type');
    });

    it("answers 404 for another account's agent and for an unknown one", async () => {
      const agent = await t.newAgent();
      const stranger = await t.newAccount();
      const foreign = await events(agent.id, '', stranger);
      assert.equal(foreign.statusCode, 404);
      assert.equal(foreign.json().code, 'not_found');
      assert.equal((await events('agt_01ARZ3NDEKTSV4RRFFQ69G5FAV')).statusCode, 404);
    });

    it("keeps a deleted agent's trail readable by its account for the retention period, then removes it", async () => {
      const agent = await t.newAgent();
      const stranger = await t.newAccount();
      assert.equal((await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}` })).statusCode, 200);
      assert.equal((await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` })).statusCode, 404);
      const [deleted, created] = await trail(agent.id);
      assert.equal(deleted!.type, 'agent.deleted');
      assert.equal(deleted!.actor, t.owner.keyId);
      assert.equal(created!.type, 'agent.created');
      assert.equal((await events(agent.id, '', stranger)).statusCode, 404);

      clock.advance(29 * dayMs);
      assert.equal((await events(agent.id)).statusCode, 200, 'still readable within the retention');
      clock.advance(2 * dayMs);
      assert.equal((await events(agent.id)).statusCode, 404, 'past the retention');

      // The next deletion prunes expired trails from storage as well.
      const other = await t.newAgent();
      assert.equal((await t.inject({ method: 'DELETE', url: `/v1/agents/${other.id}` })).statusCode, 200);
      const left = await t.deps.services.repositories.agentEvents.page({
        accountId: t.owner.accountId,
        agentId: agent.id,
        limit: 10,
      });
      assert.deepEqual(left, []);
      assert.equal((await events(other.id)).statusCode, 200, 'a fresh deletion stays readable');
    });
  });
}

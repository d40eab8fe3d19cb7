import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordSecrets } from '../helpers/known-secrets.js';
import { startFakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';
import { backends, createTestApp, type TestAccount, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * Agent versions: every change of an agent's configuration is kept, can be
 * compared with another and restored; secrets are kept by reference only.
 */

const modelKey = 'sk-version-model-key-7d41';
const mcpToken = 'mcp-version-token-a93f';
const botToken = '123456:VERSIONbottoken-5e2c';
recordSecrets(modelKey, mcpToken, botToken);

/** An agent with a secret of each kind; inactive, so that no connector starts. */
const securedAgent = {
  name: 'Vera',
  status: 'inactive',
  bio: ['First bio.'],
  platforms: [{ type: 'telegram', settings: { pollTimeoutSeconds: 20 }, secrets: { botToken } }],
  plugins: [
    { name: 'mcp', enabled: false, config: { url: 'https://tools.example.com/mcp' }, secrets: { token: mcpToken } },
  ],
  model: { provider: 'openai', name: 'gpt-4o-mini', apiKey: modelKey },
};

const nonConfiguration = ['id', 'status', 'statusReason', 'version', 'createdAt', 'updatedAt'];
function configurationOf(agent: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(agent).filter(([field]) => !nonConfiguration.includes(field)));
}

for (const backend of backends) {
  describe(`agent versions on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({
        backend: backend.name,
        // openai is enabled but never called: nothing here sends a message.
        env: {
          OPENAI_API_KEY: 'sk-test-never-used',
          AGENTD_ALLOW_AGENT_MODEL_KEYS: 'true',
          AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
          AGENTD_WEBHOOK_RETRY_BASE_MS: '10',
        },
      });
    });
    after(async () => t?.close());

    const get = (url: string, as?: TestAccount) => t.inject({ method: 'GET', url, ...(as ? { as } : {}) });
    const patch = (agentId: string, payload: object) =>
      t.inject({ method: 'PATCH', url: `/v1/agents/${agentId}`, payload });
    const restore = (agentId: string, version: number, as?: TestAccount) =>
      t.inject({ method: 'POST', url: `/v1/agents/${agentId}/versions/${version}/restore`, ...(as ? { as } : {}) });
    async function versions(agentId: string): Promise<any[]> {
      const response = await get(`/v1/agents/${agentId}/versions?limit=100`);
      assert.equal(response.statusCode, 200, response.body);
      return response.json().data;
    }

    it('records version 1 at create, with the key that made it and the configuration as the agent shows it', async () => {
      const agent = await t.newAgent({ bio: ['Hello.'], metadata: { team: 'a' } });
      assert.equal(agent.version, 1);
      const [first, ...rest] = await versions(agent.id);
      assert.deepEqual(rest, []);
      assert.deepEqual(
        { ...first, createdAt: undefined },
        {
          agentId: agent.id,
          version: 1,
          createdAt: undefined,
          keyId: t.owner.keyId,
          source: 'create',
          restoredFrom: null,
          fields: [],
        },
      );
      const version = (await get(`/v1/agents/${agent.id}/versions/1`)).json();
      assert.deepEqual(version.configuration, configurationOf(agent));
    });

    it('records a version for each PATCH that changes the configuration, and none for a status alone', async () => {
      const agent = await t.newAgent({ bio: ['One.'] });
      const patched = (await patch(agent.id, { bio: ['Two.'], metadata: { team: 'b' } })).json();
      assert.equal(patched.version, 2);
      const paused = await patch(agent.id, { status: 'inactive' });
      assert.equal(paused.statusCode, 200);
      assert.equal(paused.json().status, 'inactive');
      assert.equal(paused.json().version, 2, 'a status is not configuration');
      const unchanged = (await patch(agent.id, { bio: ['Two.'] })).json();
      assert.equal(unchanged.version, 2, 'a patch that changes nothing makes no version');
      const listed = await versions(agent.id);
      assert.deepEqual(
        listed.map((entry) => [entry.version, entry.source, entry.fields]),
        [
          [2, 'update', ['bio', 'metadata']],
          [1, 'create', []],
        ],
      );
      assert.deepEqual((await get(`/v1/agents/${agent.id}/versions/2`)).json().configuration, configurationOf(patched));
    });

    it('records version 1 of an imported character as an import', async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/v1/agents/import',
        payload: { name: 'Imported', bio: 'From a character file.' },
      });
      assert.equal(response.statusCode, 201, response.body);
      const { agent } = response.json();
      assert.equal(agent.version, 1);
      assert.deepEqual(
        (await versions(agent.id)).map((entry) => [entry.version, entry.source]),
        [[1, 'import']],
      );
    });

    it('answers a JSON Patch between two versions, by default from the one before', async () => {
      const agent = await t.newAgent({ bio: ['Before.'], expertise: ['a'] });
      await patch(agent.id, { bio: ['After.'], system: 'Be brief.' });
      await patch(agent.id, { expertise: ['a', 'b'] });
      const diff = await get(`/v1/agents/${agent.id}/versions/2/diff`);
      assert.equal(diff.statusCode, 200, diff.body);
      const body = diff.json();
      assert.equal(body.format, 'json-patch');
      assert.deepEqual([body.from, body.to], [1, 2]);
      assert.deepEqual(
        [...body.operations].sort((left: any, right: any) => left.path.localeCompare(right.path)),
        [
          { op: 'replace', path: '/bio/0', value: 'After.' },
          { op: 'replace', path: '/system', value: 'Be brief.' },
        ],
      );
      const across = (await get(`/v1/agents/${agent.id}/versions/3/diff?from=1`)).json();
      assert.deepEqual(across.from, 1);
      assert.equal(across.operations.length, 3);
      const first = (await get(`/v1/agents/${agent.id}/versions/1/diff`)).json();
      assert.equal(first.from, null);
      assert.ok(first.operations.some((operation: any) => operation.path === '/name' && operation.op === 'add'));
      assert.equal((await get(`/v1/agents/${agent.id}/versions/3/diff?from=9`)).statusCode, 404);
      assert.equal((await get(`/v1/agents/${agent.id}/versions/3/diff?from=0`)).statusCode, 400);
    });

    it('restores a version as a new one, and a restore of the present configuration changes nothing', async () => {
      const agent = await t.newAgent({ bio: ['Original.'], metadata: { team: 'x' } });
      await patch(agent.id, { bio: ['Changed.'], name: 'Renamed' });
      const restored = await restore(agent.id, 1);
      assert.equal(restored.statusCode, 200, restored.body);
      const body = restored.json();
      assert.deepEqual([body.name, body.bio, body.version], ['Ava', ['Original.'], 3]);
      assert.deepEqual((await get(`/v1/agents/${agent.id}`)).json(), body);
      const [latest] = await versions(agent.id);
      assert.deepEqual(
        [latest.version, latest.source, latest.restoredFrom, latest.fields],
        [3, 'restore', 1, ['name', 'bio']],
      );
      assert.deepEqual(
        (await get(`/v1/agents/${agent.id}/versions/3`)).json().configuration,
        (await get(`/v1/agents/${agent.id}/versions/1`)).json().configuration,
      );
      const again = await restore(agent.id, 3);
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().version, 3);
      assert.equal((await versions(agent.id)).length, 3);
    });

    it('keeps the status through a restore', async () => {
      const agent = await t.newAgent({ bio: ['Active one.'] });
      await patch(agent.id, { bio: ['Paused one.'], status: 'inactive' });
      const restored = (await restore(agent.id, 1)).json();
      assert.deepEqual([restored.bio, restored.status], [['Active one.'], 'inactive']);
    });

    it('never holds a secret in a version, sealed or clear, and restores one the agent still holds', async () => {
      const created = await t.inject({ method: 'POST', url: '/v1/agents', payload: securedAgent });
      assert.equal(created.statusCode, 201, created.body);
      const agent = created.json();
      const storedProfile = async () =>
        (
          await t.deps.database.db
            .selectFrom('agents')
            .select('profile')
            .where('id', '=', agent.id)
            .executeTakeFirstOrThrow()
        ).profile;
      const sealedAtCreate = JSON.parse(await storedProfile());
      await patch(agent.id, { bio: ['Second bio.'] });
      const restored = await restore(agent.id, 1);
      assert.equal(restored.statusCode, 200, restored.body);
      assert.deepEqual(configurationOf(restored.json()), configurationOf(agent));
      assert.deepEqual(JSON.parse(await storedProfile()).model.apiKey, sealedAtCreate.model.apiKey);

      const responses = [
        created.body,
        restored.body,
        (await get(`/v1/agents/${agent.id}/versions`)).body,
        (await get(`/v1/agents/${agent.id}/versions/1`)).body,
        (await get(`/v1/agents/${agent.id}/versions/3/diff?from=1`)).body,
        (await get(`/v1/agents/${agent.id}/versions/1/diff`)).body,
      ];
      const rows = await t.deps.database.db
        .selectFrom('agent_versions')
        .selectAll()
        .where('agent_id', '=', agent.id)
        .execute();
      assert.equal(rows.length, 3);
      const sealed = [
        sealedAtCreate.model.apiKey.sealed,
        sealedAtCreate.plugins[0].secrets.token.sealed,
        sealedAtCreate.platforms[0].secrets.botToken.sealed,
      ];
      for (const text of [...responses, JSON.stringify(rows)]) {
        for (const secret of [modelKey, mcpToken, botToken, ...sealed]) {
          assert.ok(!text.includes(secret), 'a secret, clear or sealed, is in a version or a response about one');
        }
      }
      const version = (await get(`/v1/agents/${agent.id}/versions/1`)).json();
      assert.equal(version.configuration.model.apiKey, '••••7d41');
      assert.deepEqual(version.configuration.plugins[0].secrets, { token: '••••a93f' });
    });

    it('refuses to restore a version whose secret was removed or replaced since, and changes nothing', async () => {
      const agent = (await t.inject({ method: 'POST', url: '/v1/agents', payload: securedAgent })).json();
      const removed = await patch(agent.id, { model: { apiKey: null } });
      assert.equal(removed.statusCode, 200, removed.body);
      const replaced = await patch(agent.id, {
        plugins: [
          {
            name: 'mcp',
            enabled: false,
            config: { url: 'https://tools.example.com/mcp' },
            secrets: { token: 'mcp-new-token-0001' },
          },
        ],
      });
      assert.equal(replaced.statusCode, 200, replaced.body);
      const before = (await get(`/v1/agents/${agent.id}`)).json();

      const refused = await restore(agent.id, 1);
      assert.equal(refused.statusCode, 409, refused.body);
      assert.equal(refused.headers['content-type'], 'application/problem+json; charset=utf-8');
      const problem = refused.json();
      assert.equal(problem.code, 'conflict');
      assert.match(problem.detail, /model\.apiKey/);
      assert.match(problem.detail, /plugins\[0\] \(mcp\) secrets\.token/);
      assert.ok(!problem.detail.includes('platforms'), 'the bot token it still holds is not named');
      assert.deepEqual((await get(`/v1/agents/${agent.id}`)).json(), before);
      assert.equal((await versions(agent.id)).length, 3);

      // Version 2 needs the bot token and the first mcp token; the agent holds only the bot token.
      assert.equal((await restore(agent.id, 2)).statusCode, 409);
      // Given again, the secret is a new one: the version that named the old one still cannot come back.
      await patch(agent.id, { model: { apiKey: modelKey } });
      assert.equal((await restore(agent.id, 1)).statusCode, 409);
    });

    it('answers 404 for another account’s versions and for a version that does not exist', async () => {
      const agent = await t.newAgent();
      const other = await t.newAccount();
      for (const url of [
        `/v1/agents/${agent.id}/versions`,
        `/v1/agents/${agent.id}/versions/1`,
        `/v1/agents/${agent.id}/versions/1/diff`,
      ]) {
        const response = await get(url, other);
        assert.equal(response.statusCode, 404, url);
        assert.equal(response.json().code, 'not_found');
      }
      assert.equal((await restore(agent.id, 1, other)).statusCode, 404);
      assert.equal((await get(`/v1/agents/${agent.id}`)).json().version, 1);
      assert.equal((await get(`/v1/agents/${agent.id}/versions/2`)).statusCode, 404);
      assert.equal((await restore(agent.id, 2)).statusCode, 404);
      assert.equal((await get(`/v1/agents/${agent.id}/versions/abc`)).statusCode, 400);
    });

    it('needs agents:read to read versions and agents:write to restore', async () => {
      const agent = await t.newAgent();
      const reader = await t.newKey(t.owner.accountId, ['agents:read']);
      const writer = await t.newKey(t.owner.accountId, ['agents:write']);
      assert.equal((await get(`/v1/agents/${agent.id}/versions`, reader)).statusCode, 200);
      const refused = await restore(agent.id, 1, reader);
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().detail, /agents:write/);
      assert.equal((await get(`/v1/agents/${agent.id}/versions`, writer)).statusCode, 403);
      assert.equal((await restore(agent.id, 1, writer)).statusCode, 200);
    });

    it('pages newest first with a cursor', async () => {
      const agent = await t.newAgent({ bio: ['0'] });
      for (const bio of ['1', '2', '3']) await patch(agent.id, { bio: [bio] });
      const first = (await get(`/v1/agents/${agent.id}/versions?limit=3`)).json();
      assert.deepEqual(
        first.data.map((entry: any) => entry.version),
        [4, 3, 2],
      );
      assert.equal(first.pagination.hasMore, true);
      const second = (
        await get(`/v1/agents/${agent.id}/versions?limit=3&cursor=${first.pagination.nextCursor}`)
      ).json();
      assert.deepEqual(
        second.data.map((entry: any) => entry.version),
        [1],
      );
      assert.deepEqual(second.pagination, { limit: 3, hasMore: false, nextCursor: null });
      const bad = await get(`/v1/agents/${agent.id}/versions?cursor=nonsense`);
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().errors[0].path, '/query/cursor');
    });

    it('sends agent.version_created to webhooks with the version, the key and the time', async () => {
      const receiver = await startFakeWebhookReceiver();
      try {
        const subscribed = await t.inject({
          method: 'POST',
          url: '/v1/webhooks',
          payload: { url: receiver.url, events: ['agent.version_created'] },
        });
        assert.equal(subscribed.statusCode, 201, subscribed.body);
        const { id: webhookId, secret } = subscribed.json();
        recordSecrets(secret);
        const agent = await t.newAgent({ bio: ['Hooked.'] });
        await patch(agent.id, { bio: ['Hooked again.'] });
        await patch(agent.id, { status: 'inactive' });
        await eventually(async () => (receiver.received.length >= 2 ? true : null), 'two deliveries');
        const payloads = receiver.received.map((request) => receiver.verify(request, secret));
        const listed = await versions(agent.id);
        assert.deepEqual(
          payloads.map((payload) => [payload.type, payload.data.agentId, payload.data.version, payload.data.keyId]),
          [
            ['agent.version_created', agent.id, 1, t.owner.keyId],
            ['agent.version_created', agent.id, 2, t.owner.keyId],
          ],
        );
        assert.equal(payloads[1].data.createdAt, listed[0].createdAt);
        await t.inject({ method: 'DELETE', url: `/v1/webhooks/${webhookId}` });
      } finally {
        await receiver.close();
      }
    });

    it('deletes the versions with the agent', async () => {
      const agent = await t.newAgent();
      await patch(agent.id, { bio: ['More.'] });
      assert.equal((await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}` })).statusCode, 200);
      const rows = await t.deps.database.db
        .selectFrom('agent_versions')
        .select('version')
        .where('agent_id', '=', agent.id)
        .execute();
      assert.deepEqual(rows, []);
      assert.equal((await get(`/v1/agents/${agent.id}/versions`)).statusCode, 404);
    });

    it('records a version when a knowledge base the agent used is deleted', async () => {
      const base = await t.inject({ method: 'POST', url: '/v1/knowledge-bases', payload: { name: 'Docs' } });
      assert.equal(base.statusCode, 201, base.body);
      const agent = await t.newAgent({ knowledgeBases: [base.json().id] });
      const deleted = await t.inject({ method: 'DELETE', url: `/v1/knowledge-bases/${base.json().id}` });
      assert.equal(deleted.statusCode, 200, deleted.body);
      const [latest] = await versions(agent.id);
      assert.deepEqual([latest.version, latest.source, latest.fields], [2, 'detach', ['knowledgeBases']]);
      assert.equal((await get(`/v1/agents/${agent.id}`)).json().version, 2);
      const refused = await restore(agent.id, 1);
      assert.equal(refused.statusCode, 409);
      assert.match(refused.json().detail, /knowledge bases/);
    });
  });
}

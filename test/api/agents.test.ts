import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

const fullAgent = {
  name: 'Ava',
  status: 'inactive',
  bio: ['Ava is a DeFi research assistant.'],
  personality: { traits: ['curious', 'precise'], style: ['short sentences'], tone: 'friendly' },
  system: 'Never give financial advice.',
  expertise: ['defi', 'ethereum'],
  knowledge: ['Gas is paid in ETH.', { title: 'Fees', content: 'Fees rise with demand.' }],
  goals: { objectives: ['explain risks'], motivations: ['protect users'] },
  platforms: [
    {
      type: 'telegram',
      enabled: true,
      settings: { pollTimeoutSeconds: 20 },
      secrets: { botToken: '123456:ABCDEFGH4f2a' },
    },
  ],
  plugins: [
    {
      name: 'mcp',
      enabled: false,
      config: { url: 'https://tools.example.com/mcp', timeoutMs: 1000 },
      secrets: { token: 'short' },
    },
  ],
  model: { provider: 'builtin', name: 'echo', temperature: 0.2, maxOutputTokens: 256, topP: 0.9 },
  deletionProtection: true,
  metadata: { team: 'research' },
};

for (const backend of backends) {
  describe(`agents API on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
    });
    after(async () => t?.close());

    async function create(body: unknown, headers: Record<string, string> = {}) {
      return t.inject({ method: 'POST', url: '/v1/agents', payload: body as object, headers });
    }

    it('creates an agent with only a name and fills every default', async () => {
      const response = await create({ name: 'Minimal' });
      assert.equal(response.statusCode, 201);
      const agent = response.json();
      assert.match(agent.id, /^agt_[0-9A-HJKMNP-TV-Z]{26}$/);
      assert.equal(response.headers.location, `/v1/agents/${agent.id}`);
      assert.deepEqual(
        { ...agent, id: undefined, createdAt: undefined, updatedAt: undefined },
        {
          id: undefined,
          name: 'Minimal',
          status: 'active',
          statusReason: null,
          bio: [],
          personality: { traits: [], style: [], tone: null },
          system: null,
          expertise: [],
          knowledge: [],
          knowledgeBases: [],
          goals: { objectives: [], motivations: [] },
          platforms: [],
          plugins: [],
          model: { provider: 'builtin', name: 'echo' },
          deletionProtection: false,
          metadata: {},
          memory: {
            summary: true,
            facts: true,
            recall: true,
            budgets: { historyTokens: null, summaryTokens: 400, factsTokens: 300, recallTokens: 400 },
            schedule: { everyUserTurns: 8, idleSeconds: 600 },
          },
          mcp: { exposed: false },
          limits: { spend: { tokensPerDay: null, tokensPerMonth: null, costPerDay: null, costPerMonth: null } },
          version: 1,
          createdAt: undefined,
          updatedAt: undefined,
        },
      );
      assert.match(agent.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(agent.createdAt, agent.updatedAt);
    });

    it('stores every field and reads it back, secrets masked', async () => {
      const created = (await create(fullAgent)).json();
      const fetched = await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` });
      assert.equal(fetched.statusCode, 200);
      const agent = fetched.json();
      assert.deepEqual(agent, created);
      assert.equal(agent.status, 'inactive');
      assert.deepEqual(agent.platforms[0].secrets, { botToken: '••••4f2a' });
      assert.deepEqual(agent.plugins[0].secrets, { token: '••••' });
      assert.deepEqual(agent.knowledge, fullAgent.knowledge);
      assert.deepEqual(agent.model, fullAgent.model);
      assert.ok(!fetched.body.includes('ABCDEFGH4f2a'), 'the secret never leaves the server');
    });

    it('keeps secrets encrypted at rest', async () => {
      const created = (
        await create({
          name: 'Sealed',
          platforms: [{ type: 'discord', secrets: { botToken: 'plain-text-token-9876' } }],
        })
      ).json();
      const row = await t.deps.database.db
        .selectFrom('agents')
        .select('profile')
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      assert.ok(!row.profile.includes('plain-text-token-9876'));
      assert.ok(row.profile.includes('v1.'));
    });

    it('accepts bio as a string and returns a list', async () => {
      const agent = (await create({ name: 'Bio', bio: 'One line.' })).json();
      assert.deepEqual(agent.bio, ['One line.']);
    });

    it('rejects read-only and unknown fields, listing every problem', async () => {
      const response = await create({ name: 'X', id: 'agt_1', createdAt: 'now', colour: 'red', status: 'error' });
      assert.equal(response.statusCode, 400);
      assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
      const problem = response.json();
      assert.equal(problem.code, 'validation_failed');
      const paths = problem.errors.map((error: { path: string }) => error.path).sort();
      assert.deepEqual(paths, ['/body/colour', '/body/createdAt', '/body/id', '/body/status']);
      assert.ok(
        problem.errors.find((error: { path: string }) => error.path === '/body/id').message.includes('read-only'),
      );
    });

    it('enforces the size limits of the contract', async () => {
      const cases: Array<[string, unknown]> = [
        ['/body/name', { name: '' }],
        ['/body/name', { name: 'x'.repeat(101) }],
        ['/body/expertise', { name: 'X', expertise: Array.from({ length: 101 }, () => 'e') }],
        ['/body/system', { name: 'X', system: 'x'.repeat(10_001) }],
        [
          '/body/metadata',
          { name: 'X', metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
        ],
        ['/body/metadata/team', { name: 'X', metadata: { team: 'x'.repeat(501) } }],
        ['/body/metadata/n', { name: 'X', metadata: { n: 5 } }],
        ['/body/model/temperature', { name: 'X', model: { provider: 'builtin', name: 'echo', temperature: 3 } }],
      ];
      for (const [path, body] of cases) {
        const response = await create(body);
        assert.equal(response.statusCode, 400, `${path} should be rejected`);
        assert.ok(
          response.json().errors.some((error: { path: string }) => error.path === path),
          `expected an error at ${path}, got ${response.body}`,
        );
      }
    });

    it('limits knowledge to 1 MiB in all, also where the operator accepts larger bodies', async () => {
      const roomy = await createTestApp({
        backend: backend.name,
        env: { AGENTD_BODY_LIMIT_BYTES: String(4 * 1_048_576) },
      });
      try {
        const item = 'é'.repeat(9_000); // 18,000 bytes each
        const tooMuch = await roomy.inject({
          method: 'POST',
          url: '/v1/agents',
          payload: { name: 'K', knowledge: Array.from({ length: 60 }, () => item) },
        });
        assert.equal(tooMuch.statusCode, 400);
        assert.equal(tooMuch.json().errors[0].path, '/body/knowledge');
        const enough = await roomy.inject({
          method: 'POST',
          url: '/v1/agents',
          payload: { name: 'K', knowledge: Array.from({ length: 55 }, () => item) },
        });
        assert.equal(enough.statusCode, 201);
      } finally {
        await roomy.close();
      }
    });

    it('refuses a provider that is not enabled and names the enabled ones', async () => {
      const response = await create({ name: 'X', model: { provider: 'openai', name: 'gpt-4o-mini' } });
      assert.equal(response.statusCode, 400);
      const problem = response.json();
      assert.equal(problem.errors[0].path, '/body/model/provider');
      assert.match(problem.detail, /enabled.*builtin/);
    });

    it('refuses per-agent model keys unless the operator allows them', async () => {
      const response = await create({
        name: 'X',
        model: { provider: 'builtin', name: 'echo', apiKey: 'sk-123456789012345' },
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().errors[0].path, '/body/model/apiKey');
    });

    it('changes nothing when a request is rejected', async () => {
      const before = (await t.inject({ method: 'GET', url: '/v1/agents' })).json().pagination.total;
      await create({ name: 'X', model: { provider: 'nope', name: 'x' } });
      await create({ name: 'X', unknown: true });
      const after = (await t.inject({ method: 'GET', url: '/v1/agents' })).json().pagination.total;
      assert.equal(after, before);
    });

    describe('merge patch', () => {
      it('merges objects, replaces arrays and resets null fields to defaults', async () => {
        const created = (await create({ ...fullAgent, deletionProtection: false })).json();
        const response = await t.inject({
          method: 'PATCH',
          url: `/v1/agents/${created.id}`,
          headers: { 'content-type': 'application/merge-patch+json' },
          payload: JSON.stringify({
            personality: { tone: null, traits: ['bold'] },
            expertise: ['solana'],
            system: null,
            goals: null,
            metadata: { team: null, owner: 'ops' },
            model: { temperature: null, name: 'echo' },
          }),
        });
        assert.equal(response.statusCode, 200, response.body);
        const agent = response.json();
        assert.deepEqual(agent.personality, { traits: ['bold'], style: ['short sentences'], tone: null });
        assert.deepEqual(agent.expertise, ['solana']);
        assert.equal(agent.system, null);
        assert.deepEqual(agent.goals, { objectives: [], motivations: [] });
        assert.deepEqual(agent.metadata, { owner: 'ops' });
        assert.deepEqual(agent.model, { provider: 'builtin', name: 'echo', maxOutputTokens: 256, topP: 0.9 });
        assert.equal(agent.name, created.name);
        assert.deepEqual(agent.bio, created.bio);
        assert.ok(agent.updatedAt >= created.updatedAt);
        const fetched = (await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).json();
        assert.deepEqual(fetched, agent);
      });

      it('resets model to the server default with null', async () => {
        const created = (
          await create({ name: 'M', model: { provider: 'builtin', name: 'echo', temperature: 1 } })
        ).json();
        const agent = (
          await t.inject({ method: 'PATCH', url: `/v1/agents/${created.id}`, payload: { model: null } })
        ).json();
        assert.deepEqual(agent.model, { provider: 'builtin', name: 'echo' });
      });

      it('keeps a stored secret when its mask is sent back and replaces it otherwise', async () => {
        const created = (
          await create({ name: 'S', platforms: [{ type: 'slack', secrets: { botToken: 'xoxb-000000001111' } }] })
        ).json();
        const echoBack = await t.inject({
          method: 'PATCH',
          url: `/v1/agents/${created.id}`,
          payload: { platforms: created.platforms },
        });
        assert.equal(echoBack.statusCode, 200);
        const kept = await t.deps.database.db
          .selectFrom('agents')
          .select('profile')
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow();
        const secretBefore = JSON.parse(kept.profile).platforms[0].secrets.botToken.sealed;
        const replaced = await t.inject({
          method: 'PATCH',
          url: `/v1/agents/${created.id}`,
          payload: { platforms: [{ type: 'slack', secrets: { botToken: 'xoxb-999999992222' } }] },
        });
        assert.deepEqual(replaced.json().platforms[0].secrets, { botToken: '••••2222' });
        const after = await t.deps.database.db
          .selectFrom('agents')
          .select('profile')
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow();
        assert.notEqual(JSON.parse(after.profile).platforms[0].secrets.botToken.sealed, secretBefore);
        const sealed = JSON.parse(after.profile).platforms[0].secrets.botToken.sealed;
        assert.equal(t.deps.services.secretBox.open(sealed, created.id), 'xoxb-999999992222');
      });

      it('leaves updatedAt alone when nothing changes', async () => {
        const created = (await create({ name: 'Same' })).json();
        const response = await t.inject({
          method: 'PATCH',
          url: `/v1/agents/${created.id}`,
          payload: { name: 'Same' },
        });
        assert.equal(response.json().updatedAt, created.updatedAt);
      });

      it('rejects error as a status, a null name and unknown fields', async () => {
        const created = (await create({ name: 'P' })).json();
        for (const payload of [
          { status: 'error' },
          { name: null },
          { id: 'agt_x' },
          { model: { provider: 'openai' } },
        ]) {
          const response = await t.inject({ method: 'PATCH', url: `/v1/agents/${created.id}`, payload });
          assert.equal(response.statusCode, 400, JSON.stringify(payload));
        }
        const unchanged = (await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).json();
        assert.deepEqual(unchanged, created);
      });

      it('does not lose concurrent patches of different fields', async () => {
        const created = (await create({ name: 'Race' })).json();
        const fields = Array.from({ length: 8 }, (_, index) => `key${index}`);
        const responses = await Promise.all(
          fields.map((field) =>
            t.inject({ method: 'PATCH', url: `/v1/agents/${created.id}`, payload: { metadata: { [field]: 'set' } } }),
          ),
        );
        assert.ok(responses.every((response) => response.statusCode === 200));
        const agent = (await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).json();
        assert.deepEqual(Object.keys(agent.metadata).sort(), fields);
      });

      it('counts status changes in the list total for that status', async () => {
        const account = await t.newAccount();
        const created = (
          await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'C' }, as: account })
        ).json();
        await t.inject({
          method: 'PATCH',
          url: `/v1/agents/${created.id}`,
          payload: { status: 'inactive' },
          as: account,
        });
        const active = (await t.inject({ method: 'GET', url: '/v1/agents?status=active', as: account })).json();
        const inactive = (await t.inject({ method: 'GET', url: '/v1/agents?status=inactive', as: account })).json();
        assert.equal(active.pagination.total, 0);
        assert.equal(inactive.pagination.total, 1);
        assert.equal(inactive.data[0].id, created.id);
      });
    });

    describe('delete', () => {
      it('deletes for good: the second delete and a get are 404', async () => {
        const created = (await create({ name: 'Gone' })).json();
        const first = await t.inject({ method: 'DELETE', url: `/v1/agents/${created.id}` });
        assert.equal(first.statusCode, 200);
        assert.deepEqual(first.json(), { id: created.id, deleted: true });
        assert.equal((await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).statusCode, 404);
        assert.equal((await t.inject({ method: 'DELETE', url: `/v1/agents/${created.id}` })).statusCode, 404);
      });

      it('refuses to delete a protected agent until protection is lifted', async () => {
        const created = (await create({ name: 'Safe', deletionProtection: true })).json();
        const refused = await t.inject({ method: 'DELETE', url: `/v1/agents/${created.id}` });
        assert.equal(refused.statusCode, 403);
        assert.equal(refused.json().code, 'deletion_protected');
        assert.equal((await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).statusCode, 200);
        await t.inject({ method: 'PATCH', url: `/v1/agents/${created.id}`, payload: { deletionProtection: false } });
        assert.equal((await t.inject({ method: 'DELETE', url: `/v1/agents/${created.id}` })).statusCode, 200);
      });
    });

    describe('idempotent create', () => {
      it('replays the first response for the same key and body', async () => {
        const headers = { 'idempotency-key': `key-${Math.random()}` };
        const first = await create({ name: 'Once', bio: 'b' }, headers);
        const second = await create({ bio: 'b', name: 'Once' }, headers);
        assert.equal(first.statusCode, 201);
        assert.equal(second.statusCode, 201);
        assert.equal(second.json().id, first.json().id);
        assert.equal(second.headers['idempotent-replayed'], 'true');
        assert.equal(second.headers.location, first.headers.location);
      });

      it('refuses the same key with another body with 422', async () => {
        const headers = { 'idempotency-key': `key-${Math.random()}` };
        await create({ name: 'One' }, headers);
        const reused = await create({ name: 'Two' }, headers);
        assert.equal(reused.statusCode, 422);
        assert.equal(reused.json().code, 'idempotency_key_reused');
      });

      it('answers 409 while the first request is still running', async () => {
        const key = `key-${Math.random()}`;
        const body = { name: 'Busy' };
        // The first request's claim, as it stands while that request is still being processed.
        const first = await create(body, { 'idempotency-key': `${key}-probe` });
        assert.equal(first.statusCode, 201);
        const probe = await t.deps.services.repositories.idempotency.find(t.owner.accountId, `${key}-probe`);
        assert.ok(probe);
        await t.deps.services.repositories.idempotency.claim(
          t.owner.accountId,
          key,
          probe.requestHash,
          new Date().toISOString(),
          new Date(Date.now() + 60_000).toISOString(),
        );
        const second = await create(body, { 'idempotency-key': key });
        assert.equal(second.statusCode, 409);
        assert.equal(second.json().code, 'idempotency_in_progress');
      });

      it('creates one agent under concurrent retries with the same key', async () => {
        const account = await t.newAccount();
        const headers = { 'idempotency-key': 'concurrent' };
        const responses = await Promise.all(
          Array.from({ length: 5 }, () =>
            t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Dup' }, headers, as: account }),
          ),
        );
        const ids = new Set(responses.filter((r) => r.statusCode === 201).map((r) => r.json().id));
        assert.equal(ids.size, 1);
        assert.ok(responses.every((r) => r.statusCode === 201 || r.statusCode === 409));
        const list = (await t.inject({ method: 'GET', url: '/v1/agents', as: account })).json();
        assert.equal(list.pagination.total, 1);
      });

      it('rejects an unusable Idempotency-Key header', async () => {
        const response = await create({ name: 'X' }, { 'idempotency-key': 'x'.repeat(256) });
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().errors[0].path, '/headers/idempotency-key');
      });
    });

    it("hides other accounts' agents as 404 on every agent route", async () => {
      const other = await t.newAccount();
      const mine = (await create({ name: 'Mine' })).json();
      for (const [method, payload] of [['GET'], ['PATCH', { name: 'Stolen' }], ['DELETE']] as const) {
        const response = await t.inject({
          method,
          url: `/v1/agents/${mine.id}`,
          ...(payload ? { payload } : {}),
          as: other,
        });
        assert.equal(response.statusCode, 404);
        assert.equal(response.json().code, 'not_found');
      }
      const list = (await t.inject({ method: 'GET', url: '/v1/agents', as: other })).json();
      assert.equal(list.pagination.total, 0);
      assert.equal((await t.inject({ method: 'GET', url: `/v1/agents/${mine.id}` })).json().name, 'Mine');
    });
  });
}

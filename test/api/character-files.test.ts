import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { repositoryPath } from '../helpers/repository.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

function fixture(name: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(repositoryPath('test', 'fixtures', 'characters', name), 'utf8'));
}
const fixtureNames = ['v1-community-manager.json', 'v0-trader.json', 'minimal.json', 'long-archivist.json'];

/** Every non-empty secret value a character carries, to look for in responses. */
function secretValues(character: Record<string, any>): string[] {
  return [...Object.values(character.settings?.secrets ?? {}), ...Object.values(character.secrets ?? {})]
    .map(String)
    .filter((value) => value !== '');
}

/** An agent without what differs between two agents made from the same description. */
function comparable(agent: Record<string, any>) {
  const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...rest } = agent;
  return {
    ...rest,
    platforms: rest.platforms.map((platform: any) => ({ ...platform, secrets: {} })),
    plugins: rest.plugins.map((plugin: any) => ({ ...plugin, secrets: {} })),
    model: { ...rest.model, apiKey: undefined },
  };
}

for (const backend of backends) {
  describe(`ElizaOS character files on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      // openai is enabled (never called: nothing here sends a message), anthropic is not.
      t = await createTestApp({
        backend: backend.name,
        env: { OPENAI_API_KEY: 'sk-test-never-used', AGENTD_ALLOW_AGENT_MODEL_KEYS: 'true' },
      });
    });
    after(async () => t?.close());

    const importCharacter = (payload: unknown, headers: Record<string, string> = {}) =>
      t.inject({ method: 'POST', url: '/v1/agents/import', payload: payload as object, headers });
    const exportAgent = (agentId: string) => t.inject({ method: 'GET', url: `/v1/agents/${agentId}/export` });
    const agentCount = async () =>
      (await t.inject({ method: 'GET', url: '/v1/agents?limit=1' })).json().pagination.total as number;

    for (const name of fixtureNames) {
      it(`imports ${name} as the agent it reports, without echoing a secret`, async () => {
        const character = fixture(name);
        const response = await importCharacter(character);
        assert.equal(response.statusCode, 201, response.body);
        const { agent, report } = response.json();
        assert.equal(response.headers.location, `/v1/agents/${agent.id}`);
        assert.equal(agent.name, character.name);
        const stored = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` })).json();
        assert.deepEqual(stored, agent, 'the agent in the answer is the stored one');
        assert.ok(report.mapped.includes('name'));
        for (const secret of secretValues(character)) {
          assert.ok(!response.body.includes(secret), `${name}: a secret value is in the response`);
        }
      });
    }

    it('stores the secrets a connector uses and the model the character names', async () => {
      const { agent, report } = (await importCharacter(fixture('v1-community-manager.json'))).json();
      assert.deepEqual(
        agent.platforms.map((platform: any) => [platform.type, platform.secrets]),
        [
          ['discord', { applicationId: '••••8899', botToken: '••••9f3c' }],
          ['telegram', { botToken: '••••77ab' }],
        ],
      );
      assert.deepEqual(agent.model, { provider: 'openai', name: 'gpt-4o', apiKey: '••••5d1e' });
      assert.deepEqual(
        agent.plugins.map((plugin: any) => plugin.name),
        ['knowledge'],
      );
      assert.deepEqual(agent.knowledge.length, 2);
      const unmapped = report.unmapped.map((entry: any) => entry.field);
      assert.ok(unmapped.includes('settings.secrets.SOLANA_PRIVATE_KEY'));
      assert.ok(unmapped.includes('knowledge[2]'));
    });

    it('falls back to the default model when the character names a provider this server lacks', async () => {
      const { agent, report } = (await importCharacter(fixture('v0-trader.json'))).json();
      assert.deepEqual(agent.model, { provider: 'openai', name: 'gpt-4o-mini' });
      assert.match(report.unmapped.find((entry: any) => entry.field === 'modelProvider').reason, /not enabled/);
      assert.deepEqual(
        agent.platforms.map((platform: any) => [platform.type, Object.keys(platform.secrets)]),
        [
          ['discord', []],
          ['x', []],
        ],
      );
      assert.equal(agent.bio.length, 3, 'bio and lore');
    });

    it('exports an agent and imports the export as the same agent, but for its secrets', async () => {
      const original = await t.newAgent({
        status: 'inactive',
        bio: ['Ava is a DeFi research assistant.'],
        personality: { traits: ['curious'], style: ['short sentences'], tone: 'friendly' },
        system: 'Never give financial advice.',
        expertise: ['defi'],
        knowledge: ['Gas is paid in ETH.', { title: 'Fees', content: 'Fees rise with demand.' }],
        goals: { objectives: ['explain risks'], motivations: ['protect users'] },
        platforms: [
          {
            type: 'discord',
            settings: { guildIds: ['100000000000000001'] },
            secrets: { botToken: 'discord-token-secret-1a2b' },
          },
          { type: 'matrix', enabled: false },
        ],
        plugins: [
          { name: 'clock', config: { defaultTimeZone: 'Europe/Lisbon' } },
          { name: 'mcp', enabled: false, config: { url: 'https://tools.example.com/mcp', prefix: 'tools' } },
        ],
        model: { provider: 'builtin', name: 'echo', temperature: 0.2, maxSteps: 3 },
        deletionProtection: true,
        metadata: { team: 'research' },
      });
      const exported = await exportAgent(original.id);
      assert.equal(exported.statusCode, 200);
      assert.ok(!exported.body.includes('discord-token-secret-1a2b'));
      assert.ok(!exported.body.includes('••••'), 'secrets are named, not masked');
      const character = exported.json();
      assert.deepEqual(character.settings.secrets, { DISCORD_API_TOKEN: '' });

      const imported = await importCharacter(character);
      assert.equal(imported.statusCode, 201, imported.body);
      const { agent, report } = imported.json();
      assert.notEqual(agent.id, original.id);
      assert.deepEqual(comparable(agent), comparable(original));
      assert.deepEqual(agent.platforms[0].secrets, {}, 'a secret is not carried over');
      assert.deepEqual(report.unmapped, [
        { field: 'settings.secrets.DISCORD_API_TOKEN', reason: 'has no value; set it on the agent after the import' },
      ]);
    });

    it('round-trips an imported character file through its export', async () => {
      for (const name of fixtureNames) {
        const first = (await importCharacter(fixture(name))).json().agent;
        const second = (await importCharacter((await exportAgent(first.id)).json())).json().agent;
        assert.deepEqual(comparable(second), comparable(first), name);
      }
    });

    it('replays an import sent again with the same Idempotency-Key', async () => {
      const headers = { 'idempotency-key': `import-${Date.now()}` };
      const first = await importCharacter(fixture('minimal.json'), headers);
      const again = await importCharacter(fixture('minimal.json'), headers);
      assert.equal(again.statusCode, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.deepEqual(again.json(), first.json());
    });

    it('refuses what is not a character and creates nothing', async () => {
      const before = await agentCount();
      const bad: Array<[unknown, string]> = [
        [['not', 'an', 'object'], '/body'],
        [{ bio: 'a character without a name' }, '/body/name'],
        [{ name: '   ' }, '/body/name'],
        [{ name: 'x'.repeat(101) }, '/body/name'],
        [{ name: 'Lists', adjectives: 'not a list' }, '/body/adjectives'],
        [{ name: 'Long', bio: Array(60).fill('b'), lore: Array(60).fill('l') }, '/body/lore'],
        [
          { name: 'Bad extension', settings: { agentd: { model: { provider: 'builtin', name: 'nope' } } } },
          '/body/model/name',
        ],
      ];
      for (const [payload, pointer] of bad) {
        const response = await importCharacter(payload);
        assert.equal(response.statusCode, 400, JSON.stringify(payload).slice(0, 80));
        assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
        const problem = response.json();
        assert.equal(problem.code, 'validation_failed');
        assert.ok(
          problem.errors.some((error: any) => error.path.startsWith(pointer)),
          `${JSON.stringify(problem.errors)} names ${pointer}`,
        );
      }
      assert.equal(await agentCount(), before);
    });

    it('answers 404 for the export of an agent that does not exist', async () => {
      const response = await exportAgent('agt_01JZZZZZZZZZZZZZZZZZZZZZZZ');
      assert.equal(response.statusCode, 404);
    });
  });
}

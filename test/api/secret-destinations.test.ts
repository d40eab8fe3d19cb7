import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import type { PluginDefinition } from '../../src/plugins/plugin.js';
import { backends, createTestApp, type TestAccount, type TestApp } from '../helpers/test-app.js';

/**
 * A stored secret comes back masked, and sending the mask back keeps it. That
 * must not let a caller move the entry to a server of its own while keeping
 * the secret: the secret would then be sent there. These are the rules of
 * PATCH /v1/agents/{id} for plugin and platform entries whose destination
 * (a URL, the hosts a header goes to, a chain) changed.
 */

const openApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Items', version: '1.0.0' },
  paths: {
    '/items': {
      get: { operationId: 'listItems', security: [{ apiKey: [] }], responses: { '200': { description: 'The items' } } },
    },
  },
  components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
};

/** A plugin that does not say what decides where its secrets go. */
const undeclaredPlugin: PluginDefinition = {
  name: 'undeclared',
  description: 'Sends its token wherever its config says.',
  configSchema: Type.Object(
    { endpoint: Type.Optional(Type.String()), retries: Type.Optional(Type.Integer({ default: 1 })) },
    { additionalProperties: false },
  ),
  secretsSchema: Type.Object({ token: Type.Optional(Type.String()) }, { additionalProperties: false }),
  open: async () => ({ tools: [] }),
};

const privateKey = `0x${'4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'}`;

for (const backend of backends) {
  describe(`secrets kept by their mask on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    /** A key that may change agents, as an attacker holding one would. */
    let writer: TestAccount;
    before(async () => {
      t = await createTestApp({ backend: backend.name, extraPlugins: [undeclaredPlugin] });
      writer = await t.newKey(t.owner.accountId, ['agents:read', 'agents:write']);
    });
    after(async () => t?.close());

    async function storedProfile(agentId: string): Promise<any> {
      const row = await t.deps.database.db
        .selectFrom('agents')
        .select('profile')
        .where('id', '=', agentId)
        .executeTakeFirstOrThrow();
      return JSON.parse(row.profile);
    }

    function openSecret(agentId: string, sealed: { sealed: string }): string {
      return t.deps.services.secretBox.open(sealed.sealed, agentId);
    }

    /** PATCHes with `payload` and checks it is a 400 at `pointers` (and nowhere else) that changed nothing. */
    async function assertRefused(agentId: string, payload: object, pointers: string[]) {
      const before = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}` });
      const storedBefore = await storedProfile(agentId);
      const response = await t.inject({ method: 'PATCH', url: `/v1/agents/${agentId}`, payload, as: writer });
      assert.equal(response.statusCode, 400, response.body);
      const problem = response.json();
      assert.equal(problem.code, 'validation_failed');
      assert.deepEqual(problem.errors.map((error: { path: string }) => error.path).sort(), [...pointers].sort());
      for (const error of problem.errors) {
        assert.match(error.message, /^must be given again: the entry's .+ changed, and a kept secret is not sent/);
      }
      const after = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}` });
      assert.deepEqual(after.json(), before.json());
      assert.deepEqual(await storedProfile(agentId), storedBefore);
      return problem;
    }

    it('a stored secret does not follow a changed mcp url: the masked header is refused', async () => {
      const agent = await t.newAgent({
        plugins: [
          {
            name: 'mcp',
            config: { url: 'https://tools.example.com/mcp' },
            secrets: { Authorization: 'Bearer mcp-secret-0001' },
          },
        ],
      });
      const problem = await assertRefused(
        agent.id,
        {
          plugins: [
            { name: 'mcp', config: { url: 'https://attacker.example.net/mcp' }, secrets: agent.plugins[0].secrets },
          ],
        },
        ['/body/plugins/0/secrets/Authorization'],
      );
      assert.equal(
        problem.errors[0].message,
        "must be given again: the entry's url changed, and a kept secret is not sent to a new destination",
      );
    });

    it('a stored secret does not follow a changed a2a cardUrl, nor a new secretOrigins entry', async () => {
      const agent = await t.newAgent({
        plugins: [
          {
            name: 'a2a',
            config: { cardUrl: 'https://agents.example.com/.well-known/agent-card.json' },
            secrets: { Authorization: 'Bearer a2a-secret-0001' },
          },
        ],
      });
      await assertRefused(
        agent.id,
        {
          plugins: [
            {
              name: 'a2a',
              config: { cardUrl: 'https://attacker.example.net/.well-known/agent-card.json' },
              secrets: agent.plugins[0].secrets,
            },
          ],
        },
        ['/body/plugins/0/secrets/Authorization'],
      );
      await assertRefused(
        agent.id,
        {
          plugins: [
            {
              name: 'a2a',
              config: {
                cardUrl: 'https://agents.example.com/.well-known/agent-card.json',
                secretOrigins: ['https://attacker.example.net'],
              },
              secrets: agent.plugins[0].secrets,
            },
          ],
        },
        ['/body/plugins/0/secrets/Authorization'],
      );
    });

    it('a stored secret does not follow a changed openapi baseUrl, nor a dropped one', async () => {
      const agent = await t.newAgent({
        plugins: [
          {
            name: 'openapi',
            config: { document: openApiDocument, baseUrl: 'https://api.example.com' },
            secrets: { apiKey: 'openapi-secret-0001' },
          },
        ],
      });
      const masked = agent.plugins[0].secrets;
      await assertRefused(
        agent.id,
        {
          plugins: [
            {
              name: 'openapi',
              config: { document: openApiDocument, baseUrl: 'https://attacker.example.net' },
              secrets: masked,
            },
          ],
        },
        ['/body/plugins/0/secrets/apiKey'],
      );
      // Without baseUrl the document's own server is called.
      const elsewhere = { ...openApiDocument, servers: [{ url: 'https://attacker.example.net' }] };
      await assertRefused(
        agent.id,
        { plugins: [{ name: 'openapi', config: { document: elsewhere }, secrets: masked }] },
        ['/body/plugins/0/secrets/apiKey'],
      );
    });

    it('a stored private key does not follow a changed evm rpcUrl or chain', async () => {
      const agent = await t.newAgent({
        plugins: [
          {
            name: 'evm',
            config: { chains: [{ chainId: 1, rpcUrl: 'https://rpc.example.com' }] },
            secrets: { privateKey },
          },
        ],
      });
      const masked = agent.plugins[0].secrets;
      await assertRefused(
        agent.id,
        {
          plugins: [
            {
              name: 'evm',
              config: { chains: [{ chainId: 1, rpcUrl: 'https://attacker.example.net' }] },
              secrets: masked,
            },
          ],
        },
        ['/body/plugins/0/secrets/privateKey'],
      );
      await assertRefused(
        agent.id,
        {
          plugins: [
            {
              name: 'evm',
              config: { chains: [{ chainId: 8453, rpcUrl: 'https://rpc.example.com' }] },
              secrets: masked,
            },
          ],
        },
        ['/body/plugins/0/secrets/privateKey'],
      );
    });

    it('a stored private key is not kept while the transfer guards or tokens change', async () => {
      const chains = [{ chainId: 1, rpcUrl: 'https://rpc.example.com' }];
      const agent = await t.newAgent({
        plugins: [{ name: 'evm', config: { chains }, secrets: { privateKey } }],
      });
      const masked = agent.plugins[0].secrets;
      for (const config of [
        { chains, transfers: { enabled: true, requireApproval: false, maxPerDay: { native: '10' } } },
        { chains: [{ ...chains[0], tokens: { USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' } }] },
      ]) {
        await assertRefused(agent.id, { plugins: [{ name: 'evm', config, secrets: masked }] }, [
          '/body/plugins/0/secrets/privateKey',
        ]);
      }
      // A change that neither moves nor loosens anything keeps the key.
      const kept = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { plugins: [{ name: 'evm', config: { chains, timeoutMs: 5000 }, secrets: masked }] },
        as: writer,
      });
      assert.equal(kept.statusCode, 200, kept.body);
    });

    it('a stored secret does not follow an http secretHeaders entry moved to another host', async () => {
      const agent = await t.newAgent({
        plugins: [
          {
            name: 'http',
            config: { secretHeaders: { 'api.example.com': { Authorization: 'apiToken' } } },
            secrets: { apiToken: 'Bearer http-secret-0001' },
          },
        ],
      });
      await assertRefused(
        agent.id,
        {
          plugins: [
            {
              name: 'http',
              config: { secretHeaders: { 'attacker.example.net': { Authorization: 'apiToken' } } },
              secrets: agent.plugins[0].secrets,
            },
          ],
        },
        ['/body/plugins/0/secrets/apiToken'],
      );
    });

    it('a stored key does not follow a changed images baseUrl', async () => {
      const agent = await t.newAgent({
        plugins: [
          {
            name: 'images',
            config: { provider: 'openai-compatible', baseUrl: 'https://images.example.com/v1' },
            secrets: { apiKey: 'sk-images-secret-0001' },
          },
        ],
      });
      await assertRefused(
        agent.id,
        {
          plugins: [
            {
              name: 'images',
              config: { provider: 'openai-compatible', baseUrl: 'https://attacker.example.net/v1' },
              secrets: agent.plugins[0].secrets,
            },
          ],
        },
        ['/body/plugins/0/secrets/apiKey'],
      );
    });

    it('a stored app password does not follow a changed bluesky serviceUrl, nor a dropped one', async () => {
      const agent = await t.newAgent({
        status: 'inactive',
        platforms: [
          {
            type: 'bluesky',
            settings: { serviceUrl: 'https://pds.example.com' },
            secrets: { identifier: 'ava.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop' },
          },
        ],
      });
      const masked = agent.platforms[0].secrets;
      const refusedAt = ['/body/platforms/0/secrets/identifier', '/body/platforms/0/secrets/appPassword'];
      await assertRefused(
        agent.id,
        { platforms: [{ type: 'bluesky', settings: { serviceUrl: 'https://attacker.example.net' }, secrets: masked }] },
        refusedAt,
      );
      // Without serviceUrl the operator's PDS is called: another server than the one the password was given for.
      await assertRefused(agent.id, { platforms: [{ type: 'bluesky', secrets: masked }] }, refusedAt);
    });

    it('a stored signing secret does not follow a changed webhook callbackUrl', async () => {
      const agent = await t.newAgent({
        status: 'inactive',
        platforms: [
          {
            type: 'webhook',
            settings: { callbackUrl: 'https://hooks.example.com/replies' },
            secrets: { signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
          },
        ],
      });
      await assertRefused(
        agent.id,
        {
          platforms: [
            {
              type: 'webhook',
              settings: { callbackUrl: 'https://attacker.example.net/replies' },
              secrets: agent.platforms[0].secrets,
            },
          ],
        },
        ['/body/platforms/0/secrets/signingSecret'],
      );
    });

    it('a plugin that does not say where its secrets go keeps them only while its whole config stays', async () => {
      const agent = await t.newAgent({
        plugins: [
          {
            name: 'undeclared',
            config: { endpoint: 'https://one.example.com' },
            secrets: { token: 'undeclared-secret-0001' },
          },
        ],
      });
      const masked = agent.plugins[0].secrets;
      const problem = await assertRefused(
        agent.id,
        {
          plugins: [
            { name: 'undeclared', config: { endpoint: 'https://one.example.com', retries: 2 }, secrets: masked },
          ],
        },
        ['/body/plugins/0/secrets/token'],
      );
      assert.match(problem.errors[0].message, /the entry's retries changed/);
      // The same config with its default written out, in another key order, is the same destination.
      const same = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: {
          plugins: [
            { name: 'undeclared', config: { retries: 1, endpoint: 'https://one.example.com' }, secrets: masked },
          ],
        },
        as: writer,
      });
      assert.equal(same.statusCode, 200, same.body);
      const stored = await storedProfile(agent.id);
      assert.equal(openSecret(agent.id, stored.plugins[0].secrets.token), 'undeclared-secret-0001');
    });

    it('two mcp entries with their urls swapped do not take each other’s secrets', async () => {
      const agent = await t.newAgent({
        plugins: [
          {
            name: 'mcp',
            config: { url: 'https://one.example.com/mcp', prefix: 'one' },
            secrets: { Authorization: 'Bearer first-secret-1111' },
          },
          {
            name: 'mcp',
            config: { url: 'https://two.example.com/mcp', prefix: 'two' },
            secrets: { Authorization: 'Bearer second-secret-2222' },
          },
        ],
      });
      const [first, second] = agent.plugins;
      await assertRefused(
        agent.id,
        {
          plugins: [
            { ...first, config: { ...first.config, url: second.config.url } },
            { ...second, config: { ...second.config, url: first.config.url } },
          ],
        },
        ['/body/plugins/0/secrets/Authorization', '/body/plugins/1/secrets/Authorization'],
      );
    });

    it('entries reordered or removed keep each its own secret, found by its destination', async () => {
      const agent = await t.newAgent({
        plugins: [
          {
            name: 'mcp',
            config: { url: 'https://one.example.com/mcp', prefix: 'one' },
            secrets: { Authorization: 'Bearer first-secret-1111' },
          },
          {
            name: 'mcp',
            config: { url: 'https://two.example.com/mcp', prefix: 'two' },
            secrets: { Authorization: 'Bearer second-secret-2222' },
          },
        ],
      });
      const [first, second] = agent.plugins;
      const reordered = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { plugins: [second, first] },
        as: writer,
      });
      assert.equal(reordered.statusCode, 200, reordered.body);
      let stored = (await storedProfile(agent.id)).plugins;
      assert.equal(stored[0].config.url, 'https://two.example.com/mcp');
      assert.equal(openSecret(agent.id, stored[0].secrets.Authorization), 'Bearer second-secret-2222');
      assert.equal(openSecret(agent.id, stored[1].secrets.Authorization), 'Bearer first-secret-1111');

      const removed = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { plugins: [first] },
        as: writer,
      });
      assert.equal(removed.statusCode, 200, removed.body);
      stored = (await storedProfile(agent.id)).plugins;
      assert.equal(stored.length, 1);
      assert.equal(openSecret(agent.id, stored[0].secrets.Authorization), 'Bearer first-secret-1111');
    });

    it('a masked secret is still kept while the destination stays the same', async () => {
      const agent = await t.newAgent({
        status: 'inactive',
        plugins: [
          {
            name: 'mcp',
            config: { url: 'https://tools.example.com/mcp' },
            secrets: { Authorization: 'Bearer mcp-secret-0001' },
          },
        ],
        platforms: [
          {
            type: 'bluesky',
            settings: { serviceUrl: 'https://pds.example.com' },
            secrets: { identifier: 'ava.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop' },
          },
          { type: 'telegram', secrets: { botToken: '123456:ABCDEFGH4f2a' } },
        ],
      });
      const response = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: {
          plugins: [
            {
              name: 'mcp',
              config: { url: 'https://tools.example.com/mcp', timeoutMs: 2000 },
              secrets: agent.plugins[0].secrets,
            },
          ],
          platforms: [
            {
              type: 'bluesky',
              settings: { serviceUrl: 'https://pds.example.com', pollIntervalSeconds: 60 },
              secrets: agent.platforms[0].secrets,
            },
            // Settings that say nothing of where the token goes may change freely.
            { type: 'telegram', settings: { pollTimeoutSeconds: 10 }, secrets: agent.platforms[1].secrets },
          ],
        },
        as: writer,
      });
      assert.equal(response.statusCode, 200, response.body);
      const stored = await storedProfile(agent.id);
      assert.equal(openSecret(agent.id, stored.plugins[0].secrets.Authorization), 'Bearer mcp-secret-0001');
      assert.equal(openSecret(agent.id, stored.platforms[0].secrets.appPassword), 'abcd-efgh-ijkl-mnop');
      assert.equal(openSecret(agent.id, stored.platforms[1].secrets.botToken), '123456:ABCDEFGH4f2a');
    });

    it('a changed destination is accepted with its secrets given again in clear', async () => {
      const agent = await t.newAgent({
        plugins: [
          {
            name: 'mcp',
            config: { url: 'https://tools.example.com/mcp' },
            secrets: { Authorization: 'Bearer mcp-secret-0001' },
          },
        ],
      });
      const response = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: {
          plugins: [
            {
              name: 'mcp',
              config: { url: 'https://other.example.net/mcp' },
              secrets: { Authorization: 'Bearer other-secret-9999' },
            },
          ],
        },
        as: writer,
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json().plugins[0].secrets, { Authorization: '••••9999' });
      const stored = await storedProfile(agent.id);
      assert.equal(openSecret(agent.id, stored.plugins[0].secrets.Authorization), 'Bearer other-secret-9999');
    });

    it('a character import never takes an existing agent’s stored secrets, masks or not', async () => {
      const existing = await t.newAgent({
        plugins: [
          {
            name: 'mcp',
            config: { url: 'https://tools.example.com/mcp' },
            secrets: { Authorization: 'Bearer mcp-secret-0001' },
          },
        ],
      });
      const storedBefore = await storedProfile(existing.id);
      const response = await t.inject({
        method: 'POST',
        url: '/v1/agents/import',
        payload: {
          name: existing.name,
          settings: {
            agentd: {
              plugins: [
                {
                  name: 'mcp',
                  config: { url: 'https://attacker.example.net/mcp' },
                  secrets: existing.plugins[0].secrets,
                },
              ],
            },
          },
        },
        as: writer,
      });
      assert.equal(response.statusCode, 201, response.body);
      const imported = response.json().agent;
      assert.notEqual(imported.id, existing.id);
      const stored = await storedProfile(imported.id);
      assert.notEqual(openSecret(imported.id, stored.plugins[0].secrets.Authorization), 'Bearer mcp-secret-0001');
      assert.deepEqual(await storedProfile(existing.id), storedBefore);
    });

    it('a stored model key does not follow a changed provider, kept by its mask or left out', async () => {
      // Both providers are configured (neither is called: nothing here sends a message), and agents may bring keys.
      const keys = await createTestApp({
        backend: backend.name,
        env: {
          AGENTD_ALLOW_AGENT_MODEL_KEYS: 'true',
          OPENAI_API_KEY: 'sk-test-never-used',
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1',
          AGENTD_OPENAI_COMPATIBLE_API_KEY: 'server-key-123456',
        },
      });
      try {
        const created = await keys.inject({
          method: 'POST',
          url: '/v1/agents',
          payload: { name: 'K', model: { provider: 'openai-compatible', name: 'm', apiKey: 'agent-key-abcdef987654' } },
        });
        assert.equal(created.statusCode, 201, created.body);
        const agent = created.json();
        for (const model of [
          { provider: 'openai', name: 'gpt-4o-mini', apiKey: agent.model.apiKey },
          { provider: 'openai', name: 'gpt-4o-mini' },
        ]) {
          const response = await keys.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { model } });
          assert.equal(response.statusCode, 400, response.body);
          assert.deepEqual(
            response.json().errors.map((error: { path: string }) => error.path),
            ['/body/model/apiKey'],
          );
          const after = await keys.inject({ method: 'GET', url: `/v1/agents/${agent.id}` });
          assert.deepEqual(after.json(), agent);
        }
        // The same provider keeps its key by the mask; a new provider takes a key given again, or none.
        const renamed = await keys.inject({
          method: 'PATCH',
          url: `/v1/agents/${agent.id}`,
          payload: { model: { name: 'm2', apiKey: agent.model.apiKey } },
        });
        assert.equal(renamed.statusCode, 200, renamed.body);
        assert.equal(renamed.json().model.apiKey, agent.model.apiKey);
        const moved = await keys.inject({
          method: 'PATCH',
          url: `/v1/agents/${agent.id}`,
          payload: { model: { provider: 'openai', name: 'gpt-4o-mini', apiKey: null } },
        });
        assert.equal(moved.statusCode, 200, moved.body);
        assert.equal(moved.json().model.apiKey, undefined);
      } finally {
        await keys.close();
      }
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { textOf, turnsOf, type FakeProviderServer, type RecordedRequest } from '../helpers/fake-provider-server.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * What reaches the model, read from the requests the fake provider recorded:
 * the real provider code path (AI SDK over HTTP) talks to it on loopback.
 */
const systemOf = (request: RecordedRequest) =>
  textOf(request.body.messages.find((message) => message.role === 'system') ?? { role: 'system', content: '' });

for (const backend of backends) {
  describe(`prompts sent to an OpenAI-compatible provider on ${backend.name}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    before(async () => {
      fake = await startFakeOpenAiServer();
      t = await createTestApp({
        backend: backend.name,
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_OPENAI_COMPATIBLE_API_KEY: 'server-key-123456',
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
        },
      });
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });
    beforeEach(() => fake.reset());

    const newAgent = (fields: Record<string, unknown> = {}) => t.newAgent(fields);
    async function send(agentId: string, payload: Record<string, unknown>) {
      const response = await t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }

    it("uses AGENTD_DEFAULT_MODEL for new agents and the provider's answer, usage and model in the reply", async () => {
      const agent = await newAgent();
      assert.deepEqual(agent.model, { provider: 'openai-compatible', name: 'test-model' });
      fake.enqueue({ reply: 'Hi, I am Ava.', usage: { inputTokens: 40, outputTokens: 5 } });
      const reply = await send(agent.id, { text: 'Who are you?' });
      assert.equal(reply.text, 'Hi, I am Ava.');
      // An openai-compatible model has no price unless the operator gives one: it costs nothing and says so.
      assert.deepEqual(reply.usage, { inputTokens: 40, outputTokens: 5, totalTokens: 45, costUsd: 0, priced: false });
      assert.deepEqual(reply.model, { provider: 'openai-compatible', name: 'test-model' });
      const [request] = fake.requests;
      assert.equal(request?.body.model, 'test-model');
      assert.equal(request?.authorization, 'Bearer server-key-123456');
      assert.ok(request?.path.endsWith('/v1/chat/completions'));
    });

    it('passes the character, the relevant knowledge and the context, and the model settings', async () => {
      const agent = await newAgent({
        bio: ['Ava is a DeFi research assistant.'],
        personality: { traits: ['curious'], style: ['short sentences'], tone: 'friendly' },
        goals: { objectives: ['explain risks'], motivations: ['protect users'] },
        expertise: ['defi'],
        system: 'Never give financial advice.',
        knowledge: ['Gas is paid in ETH.', { title: 'Bridges', content: 'Bridges move tokens between chains.' }],
        model: { provider: 'openai-compatible', name: 'test-model', temperature: 0.3, maxOutputTokens: 200, topP: 0.9 },
      });
      await send(agent.id, { text: 'Who pays the gas?', context: { page: 'pricing', plan: 'pro' } });
      const request = fake.requests[0] as RecordedRequest;
      const system = systemOf(request);
      for (const part of [
        'You are Ava.',
        'DeFi research assistant',
        'curious',
        'short sentences',
        'friendly',
        'explain risks',
        'protect users',
        'defi',
        'Never give financial advice.',
      ]) {
        assert.ok(system.includes(part), `system prompt lacks "${part}":\n${system}`);
      }
      // Knowledge and context change with every message: they travel in the last message, so the system prompt
      // and the history before it stay a prefix the provider can cache.
      const [last, ...earlier] = turnsOf(request).reverse();
      assert.deepEqual(earlier, []);
      for (const part of ['Gas is paid in ETH.', '"page":"pricing"', '"plan":"pro"']) {
        assert.ok(!system.includes(part), `the system prompt carries "${part}"`);
        assert.ok(last?.includes(part), `the message lacks "${part}":\n${last}`);
      }
      assert.match(last ?? '', /^user: <message-notes>\n[^]*<\/message-notes>\n\nWho pays the gas\?$/);
      assert.ok(!last?.includes('Bridges'), 'irrelevant knowledge stays out');
      assert.equal(request.body.temperature, 0.3);
      assert.equal(request.body.max_tokens, 200);
      assert.equal(request.body.top_p, 0.9);
    });

    it('continues a private conversation with the same user, and keeps it from other users', async () => {
      const agent = await newAgent();
      fake.enqueue({ reply: 'Nice to meet you, Bob.' });
      await send(agent.id, { text: 'My name is Bob.', userId: 'bob' });
      await send(agent.id, { text: 'What is my name?', userId: 'bob' });
      assert.deepEqual(turnsOf(fake.requests[1] as RecordedRequest), [
        'user: My name is Bob.',
        'assistant: Nice to meet you, Bob.',
        'user: What is my name?',
      ]);
      await send(agent.id, { text: 'What is my name?', userId: 'eve' });
      assert.deepEqual(turnsOf(fake.requests[2] as RecordedRequest), ['user: What is my name?']);
    });

    it("shares a room's history with everyone in it, speakers labelled", async () => {
      const agent = await newAgent();
      fake.enqueue({ reply: 'Welcome, Ann.' });
      await send(agent.id, { text: 'Hi, I am Ann.', userId: 'ann', roomId: 'lobby' });
      await send(agent.id, { text: 'Who was here before me?', userId: 'bob', roomId: 'lobby' });
      const request = fake.requests[1] as RecordedRequest;
      assert.deepEqual(turnsOf(request), [
        'user: [ann] Hi, I am Ann.',
        'assistant: Welcome, Ann.',
        'user: [bob] Who was here before me?',
      ]);
      assert.ok(systemOf(request).includes('shared conversation'));
      await send(agent.id, { text: 'Anyone?', userId: 'ann', roomId: 'other-room' });
      assert.deepEqual(turnsOf(fake.requests[2] as RecordedRequest), ['user: [ann] Anyone?']);
    });

    it('reads and writes no history without userId or roomId', async () => {
      const agent = await newAgent();
      await send(agent.id, { text: 'first' });
      await send(agent.id, { text: 'second' });
      assert.deepEqual(turnsOf(fake.requests[1] as RecordedRequest), ['user: second']);
    });

    it('forgets: after DELETE the conversation is gone from the prompt', async () => {
      const agent = await newAgent();
      await send(agent.id, { text: 'remember this', userId: 'kim' });
      const forgotten = await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}/conversations?userId=kim` });
      assert.deepEqual(forgotten.json(), { deleted: 2 });
      await send(agent.id, { text: 'what did I say?', userId: 'kim' });
      assert.deepEqual(turnsOf(fake.requests[1] as RecordedRequest), ['user: what did I say?']);
    });

    it('refuses a provider that is not enabled on create and on PATCH, naming the enabled ones', async () => {
      const created = await t.inject({
        method: 'POST',
        url: '/v1/agents',
        payload: { name: 'X', model: { provider: 'anthropic', name: 'claude-haiku-4-5' } },
      });
      assert.equal(created.statusCode, 400);
      assert.match(created.json().detail, /enabled: openai-compatible, builtin/);
      const agent = await newAgent();
      const patched = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { model: { provider: 'ollama' } },
      });
      assert.equal(patched.statusCode, 400);
      assert.equal(patched.json().errors[0].path, '/body/model/provider');
      assert.match(patched.json().detail, /enabled: openai-compatible, builtin/);
    });
  });
}

describe('other providers reach their servers', () => {
  let fake: FakeProviderServer;
  before(async () => {
    fake = await startFakeOpenAiServer();
  });
  after(async () => fake?.close());
  beforeEach(() => fake.reset());

  it('openai: Chat Completions at OPENAI_BASE_URL, the default model gpt-4o-mini', async () => {
    const t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-test-openai-000000', OPENAI_BASE_URL: fake.baseUrl } });
    try {
      const agent = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'O' } })).json();
      assert.deepEqual(agent.model, { provider: 'openai', name: 'gpt-4o-mini' });
      fake.enqueue({ reply: 'from openai' });
      const reply = (
        await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'hi' } })
      ).json();
      assert.equal(reply.text, 'from openai');
      assert.equal(fake.requests[0]?.path, '/v1/chat/completions');
      assert.equal(fake.requests[0]?.authorization, 'Bearer sk-test-openai-000000');
    } finally {
      await t.close();
    }
  });

  it('ollama: its OpenAI-compatible endpoint under OLLAMA_BASE_URL', async () => {
    const t = await createTestApp({ env: { OLLAMA_BASE_URL: fake.origin } });
    try {
      const agent = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'L' } })).json();
      assert.deepEqual(agent.model, { provider: 'ollama', name: 'llama3.2' });
      fake.enqueue({ reply: 'from ollama' });
      const reply = (
        await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'hi' } })
      ).json();
      assert.equal(reply.text, 'from ollama');
      assert.equal(fake.requests[0]?.path, '/v1/chat/completions');
      assert.equal(fake.requests[0]?.body.model, 'llama3.2');
    } finally {
      await t.close();
    }
  });

  it('a per-agent model key is used for that agent only and never shown', async () => {
    const t = await createTestApp({
      env: {
        AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
        AGENTD_OPENAI_COMPATIBLE_API_KEY: 'server-key-123456',
        AGENTD_ALLOW_AGENT_MODEL_KEYS: 'true',
      },
    });
    try {
      const own = (
        await t.inject({
          method: 'POST',
          url: '/v1/agents',
          payload: { name: 'K', model: { provider: 'openai-compatible', name: 'm', apiKey: 'agent-key-abcdef987654' } },
        })
      ).json();
      const shared = (
        await t.inject({
          method: 'POST',
          url: '/v1/agents',
          payload: { name: 'S', model: { provider: 'openai-compatible', name: 'm' } },
        })
      ).json();
      fake.enqueue({ status: 401 });
      const rejected = await t.inject({
        method: 'POST',
        url: `/v1/agents/${own.id}/messages`,
        payload: { text: 'hi' },
      });
      await t.inject({ method: 'POST', url: `/v1/agents/${shared.id}/messages`, payload: { text: 'hi' } });
      assert.equal(fake.requests[0]?.authorization, 'Bearer agent-key-abcdef987654');
      assert.equal(fake.requests[1]?.authorization, 'Bearer server-key-123456');
      const agentView = await t.inject({ method: 'GET', url: `/v1/agents/${own.id}` });
      for (const body of [rejected.body, agentView.body]) {
        assert.ok(!body.includes('agent-key-abcdef987654') && !body.includes('server-key-123456'), body);
      }
      assert.equal(agentView.json().model.apiKey, '••••7654');
    } finally {
      await t.close();
    }
  });
});

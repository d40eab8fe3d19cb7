import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeAnthropicServer, systemTextOf } from '../helpers/fake-anthropic-server.js';
import { turnsOf, type FakeProviderServer } from '../helpers/fake-provider-server.js';
import { deltaText, readEvents } from '../helpers/sse-client.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The `anthropic` provider (@ai-sdk/anthropic) against a fake that speaks the
 * Anthropic Messages API over loopback HTTP: what reaches Anthropic, how its
 * stream becomes a reply, and how its errors map to the status rules of
 * contract §7. The storage backend plays no part here, so SQLite alone.
 */
const serverKey = 'sk-ant-test-key-0123456789';

describe('the anthropic provider through the Messages API', () => {
  let fake: FakeProviderServer;
  let t: TestApp;
  before(async () => {
    fake = await startFakeAnthropicServer();
    t = await createTestApp({
      // Without /v1, as Anthropic's own tools take it: agentd adds it.
      env: { ANTHROPIC_API_KEY: serverKey, ANTHROPIC_BASE_URL: fake.origin, AGENTD_PROVIDER_RETRY_DELAY_MS: '1' },
    });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const newAgent = (fields: Record<string, unknown> = {}) => t.newAgent(fields);
  const send = (agentId: string, payload: Record<string, unknown> = { text: 'hi' }) =>
    t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload });
  const getAgent = async (agentId: string) => (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}` })).json();

  it("answers with the provider's text and usage; the key, the version header and the character reach Anthropic", async () => {
    const agent = await newAgent({
      bio: 'Ava is a DeFi research assistant.',
      personality: { tone: 'friendly' },
      system: 'Never give financial advice.',
      model: { provider: 'anthropic', name: 'claude-haiku-4-5', temperature: 0.2, maxOutputTokens: 300 },
    });
    fake.enqueue({ reply: 'Hi, I am Ava.', usage: { inputTokens: 40, outputTokens: 5 } });
    const response = await send(agent.id, { text: 'Who are you?', userId: 'u1' });
    assert.equal(response.statusCode, 200, response.body);
    const reply = response.json();
    assert.equal(reply.text, 'Hi, I am Ava.');
    assert.equal(reply.finishReason, 'stop');
    // Priced at claude-haiku-4-5's default rates: $1 per million input tokens, $5 per million output tokens.
    assert.deepEqual(reply.usage, {
      inputTokens: 40,
      outputTokens: 5,
      totalTokens: 45,
      costUsd: 0.000065,
      priced: true,
    });
    assert.deepEqual(reply.model, { provider: 'anthropic', name: 'claude-haiku-4-5' });

    assert.equal(fake.requests.length, 1);
    const request = fake.requests[0]!;
    assert.equal(request.path, '/v1/messages');
    assert.equal(request.headers['x-api-key'], serverKey);
    assert.equal(request.headers['anthropic-version'], '2023-06-01');
    assert.equal(request.authorization, undefined, 'Anthropic takes the key in x-api-key, not as a bearer token');
    assert.equal(request.body.model, 'claude-haiku-4-5');
    assert.equal(request.body.stream, true);
    assert.equal(request.body.temperature, 0.2);
    assert.equal(request.body.max_tokens, 300);
    const system = systemTextOf(request);
    for (const part of ['You are Ava.', 'DeFi research assistant', 'friendly', 'Never give financial advice.']) {
      assert.ok(system.includes(part), `system prompt lacks "${part}":\n${system}`);
    }
    assert.deepEqual(
      turnsOf(request),
      ['user: Who are you?'],
      'the character goes in `system`, not among the messages',
    );
  });

  it('makes the default model claude-haiku-4-5 when Anthropic is the only provider', async () => {
    const agent = await newAgent();
    assert.deepEqual(agent.model, { provider: 'anthropic', name: 'claude-haiku-4-5' });
  });

  it('streams the reply as message.delta events and continues the conversation with the history', async () => {
    const agent = await newAgent();
    fake.enqueue({ reply: 'Nice to meet you, Bob.' });
    assert.equal((await send(agent.id, { text: 'My name is Bob.', userId: 'bob' })).statusCode, 200);

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    fake.enqueue({ reply: 'Your name is Bob.', tokenDelayMs: 5 });
    const response = await fetch(`http://127.0.0.1:${port}/v1/agents/${agent.id}/messages`, {
      method: 'POST',
      headers: { ...t.owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'What is my name?', userId: 'bob', stream: true }),
    });
    assert.equal(response.status, 200);
    const events = await readEvents(response.body!).rest();
    assert.deepEqual(
      events.map((event) => event.event),
      ['message.started', ...Array(4).fill('message.delta'), 'message.completed'],
    );
    const completed = events.at(-1)!.data;
    assert.equal(completed.text, 'Your name is Bob.');
    assert.equal(completed.finishReason, 'stop');
    assert.equal(deltaText(events), completed.text);
    assert.deepEqual(turnsOf(fake.requests[1]!), [
      'user: My name is Bob.',
      'assistant: Nice to meet you, Bob.',
      'user: What is my name?',
    ]);
  });

  it('puts the agent in error with a readable reason when Anthropic answers 401, without retrying', async () => {
    const agent = await newAgent();
    fake.enqueue({ status: 401, errorMessage: 'invalid x-api-key' });
    const response = await send(agent.id);
    assert.equal(response.statusCode, 503);
    assert.equal(response.json().code, 'agent_unavailable');
    assert.equal(fake.requests.length, 1);
    const faulted = await getAgent(agent.id);
    assert.equal(faulted.status, 'error');
    assert.equal(faulted.statusReason, 'The provider anthropic rejected the credentials (HTTP 401).');
    assert.ok(!response.body.includes(serverKey));
  });

  it('treats 529 overloaded_error as transient: retried, then 503 provider_unavailable, the agent still active', async () => {
    const agent = await newAgent();
    fake.enqueue(
      { status: 529, errorMessage: 'Overloaded' },
      { status: 529, errorMessage: 'Overloaded' },
      { status: 529, errorMessage: 'Overloaded' },
    );
    const response = await send(agent.id);
    assert.equal(response.statusCode, 503);
    assert.equal(response.json().code, 'provider_unavailable');
    assert.match(response.json().detail, /anthropic answered HTTP 529/);
    assert.ok(Number(response.headers['retry-after']) >= 1);
    assert.equal(fake.requests.length, 3, 'one call and two retries');
    const after = await getAgent(agent.id);
    assert.equal(after.status, 'active');
    assert.equal(after.statusReason, null);
  });

  it('retries a 500 api_error and answers once Anthropic does', async () => {
    const agent = await newAgent();
    fake.enqueue({ status: 500, errorMessage: 'Internal server error' });
    const response = await send(agent.id);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(fake.requests.length, 2);
    assert.equal((await getAgent(agent.id)).status, 'active');
  });
});

describe('ANTHROPIC_BASE_URL with its /v1', () => {
  it('reaches the same /v1/messages', async () => {
    const fake = await startFakeAnthropicServer();
    const t = await createTestApp({ env: { ANTHROPIC_API_KEY: serverKey, ANTHROPIC_BASE_URL: fake.baseUrl } });
    try {
      const agent = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'A' } })).json();
      const reply = await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'hi' } });
      assert.equal(reply.json().text, 'Reply to: hi');
      assert.equal(fake.requests[0]?.path, '/v1/messages');
    } finally {
      await t.close();
      await fake.close();
    }
  });
});

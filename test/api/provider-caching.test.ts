import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { startFakeOtlpReceiver, type FakeOtlpReceiver } from '../helpers/fake-otlp-receiver.js';
import type { ChatMessage, FakeProviderServer, RecordedRequest } from '../helpers/fake-provider-server.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * Prompts providers can cache, read from the requests the fake providers
 * recorded: Anthropic's cache breakpoints on the stable prefix (tools,
 * system, the history before the current message), OpenAI's
 * per-conversation `prompt_cache_key`; and the cached input tokens the
 * providers report, in the reply's usage and the agent's metrics.
 */

type Block = { type: string; text?: string; cache_control?: unknown; [key: string]: unknown };

const ephemeral = { type: 'ephemeral' };

/** A usage's token counts (its cost is priced elsewhere). */
function tokensOf({ costUsd, priced, ...tokens }: Record<string, unknown>) {
  return tokens;
}

/** The content blocks of a message as sent (a string content is one text block without a marker). */
function blocksOf(message: ChatMessage): Block[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as Block[]);
}

/** Where the request carries cache breakpoints, in the provider's own order: tools, system, messages. */
function breakpointsOf(request: RecordedRequest): string[] {
  const marked: string[] = [];
  const tools = (request.body.tools as Array<{ name: string; cache_control?: unknown }> | undefined) ?? [];
  for (const tool of tools) if (tool.cache_control !== undefined) marked.push(`tool ${tool.name}`);
  const system = request.body.system;
  if (Array.isArray(system))
    for (const block of system as Block[]) if (block.cache_control !== undefined) marked.push('system');
  request.body.messages.forEach((message, index) => {
    for (const block of blocksOf(message))
      if (block.cache_control !== undefined) marked.push(`message ${index} (${message.role})`);
  });
  return marked;
}

function cacheControlsOf(request: RecordedRequest): unknown[] {
  const controls: unknown[] = [];
  for (const tool of (request.body.tools as Array<{ cache_control?: unknown }> | undefined) ?? [])
    if (tool.cache_control !== undefined) controls.push(tool.cache_control);
  if (Array.isArray(request.body.system))
    for (const block of request.body.system as Block[])
      if (block.cache_control !== undefined) controls.push(block.cache_control);
  for (const message of request.body.messages)
    for (const block of blocksOf(message)) if (block.cache_control !== undefined) controls.push(block.cache_control);
  return controls;
}

describe('prompt caching with the anthropic provider', () => {
  let fake: FakeProviderServer;
  let t: TestApp;
  before(async () => {
    fake = await startFakeAnthropicServer();
    t = await createTestApp({
      env: { ANTHROPIC_API_KEY: 'sk-ant-test-key-0123456789', ANTHROPIC_BASE_URL: fake.origin },
    });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const send = async (agentId: string, payload: Record<string, unknown>) => {
    const response = await t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };
  const newAgent = (fields: Record<string, unknown> = {}) =>
    t.newAgent({
      model: { provider: 'anthropic', name: 'claude-haiku-4-5' },
      memory: { summary: false, facts: false, recall: false },
      ...fields,
    });

  it('the stable prefix is cached: breakpoints on the system prompt and the end of the history, never on the current message', async () => {
    const agent = await newAgent({ system: 'Never give financial advice.' });
    fake.enqueue({ reply: 'First answer.' });
    await send(agent.id, { text: 'First question', userId: 'u1' });
    fake.enqueue({ reply: 'Second answer.' });
    await send(agent.id, { text: 'Second question', userId: 'u1' });

    const [first, second] = fake.requests as [RecordedRequest, RecordedRequest];
    // The first message has no history: only the system prompt is a stable prefix.
    assert.deepEqual(breakpointsOf(first), ['system']);
    // The second: the history ends with the first answer, just before the current message.
    const messages = second.body.messages;
    assert.equal(messages.at(-1)?.role, 'user');
    assert.deepEqual(breakpointsOf(second), ['system', `message ${messages.length - 2} (assistant)`]);
    for (const control of [...cacheControlsOf(first), ...cacheControlsOf(second)]) assert.deepEqual(control, ephemeral);
  });

  it('the tool definitions are cached with the prefix: a breakpoint on the last tool, and on the tool round the next step repeats', async () => {
    const agent = await newAgent({ plugins: [{ name: 'math' }] });
    fake.enqueue({ toolCalls: [{ name: 'calculate', input: { expression: '2+2' } }] }, { reply: 'It is 4.' });
    await send(agent.id, { text: 'What is 2+2?', userId: 'u1' });
    const [call, afterTool] = fake.requests as [RecordedRequest, RecordedRequest];
    const tools = call.body.tools as Array<{ name: string }>;
    const lastTool = `tool ${tools.at(-1)?.name}`;
    assert.deepEqual(breakpointsOf(call), [lastTool, 'system']);
    // The step after the tool ran: the tool round (the last message) is a prefix of any further step.
    const last = afterTool.body.messages.length - 1;
    assert.deepEqual(breakpointsOf(afterTool), [lastTool, 'system', `message ${last} (user)`]);
  });

  it("cached input tokens Anthropic reports appear in the reply's usage, counted among the input tokens", async () => {
    const agent = await newAgent();
    fake.enqueue({ reply: 'Cached.', usage: { inputTokens: 1200, outputTokens: 3, cachedInputTokens: 1024 } });
    const reply = await send(agent.id, { text: 'hi', userId: 'u1' });
    assert.deepEqual(tokensOf(reply.usage), {
      inputTokens: 1200,
      outputTokens: 3,
      totalTokens: 1203,
      cachedInputTokens: 1024,
    });
  });
});

describe('prompt caching with the openai provider', () => {
  let fake: FakeProviderServer;
  let t: TestApp;
  before(async () => {
    fake = await startFakeOpenAiServer();
    t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-test-openai-000000', OPENAI_BASE_URL: fake.baseUrl } });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const send = async (agentId: string, payload: Record<string, unknown>) => {
    const response = await t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };
  const newAgent = () =>
    t.newAgent({
      model: { provider: 'openai', name: 'gpt-4o-mini' },
      memory: { summary: false, facts: false, recall: false },
    });

  it('a conversation keeps one prompt_cache_key, other conversations and agents get others, and no user id is sent', async () => {
    const agent = await newAgent();
    const other = await newAgent();
    const keyOf = async (agentId: string, payload: Record<string, unknown>) => {
      fake.enqueue({ reply: 'ok' });
      await send(agentId, payload);
      const request = fake.requests.at(-1) as RecordedRequest;
      return request.body.prompt_cache_key as string | undefined;
    };
    const first = await keyOf(agent.id, { text: 'one', userId: 'user-secret-42' });
    assert.equal(typeof first, 'string');
    assert.equal(await keyOf(agent.id, { text: 'two', userId: 'user-secret-42' }), first);
    const otherUser = await keyOf(agent.id, { text: 'one', userId: 'user-secret-43' });
    const room = await keyOf(agent.id, { text: 'one', roomId: 'room-7', userId: 'user-secret-42' });
    const otherAgent = await keyOf(other.id, { text: 'one', userId: 'user-secret-42' });
    assert.equal(new Set([first, otherUser, room, otherAgent]).size, 4);
    for (const key of [first, otherUser, room, otherAgent]) {
      assert.ok(!String(key).includes('user-secret'), `the key shows the user id: ${key}`);
      assert.ok(!String(key).includes(agent.id) && !String(key).includes(other.id), 'the key shows the agent id');
      assert.ok(String(key).length <= 64, 'OpenAI takes keys of at most 64 characters');
    }
    // Nor is it sent beside the prompt (a room's prompt names its speakers: that is the prompt's, not the key's).
    for (const { body } of fake.requests) {
      const { messages, ...fields } = body;
      assert.ok(!JSON.stringify(fields).includes('user-secret'), JSON.stringify(fields));
    }
  });

  it("cached input tokens OpenAI reports appear in the reply's usage", async () => {
    const agent = await newAgent();
    fake.enqueue({ reply: 'Cached.', usage: { inputTokens: 2000, outputTokens: 2, cachedInputTokens: 1536 } });
    const reply = await send(agent.id, { text: 'hi', userId: 'u1' });
    assert.deepEqual(tokensOf(reply.usage), {
      inputTokens: 2000,
      outputTokens: 2,
      totalTokens: 2002,
      cachedInputTokens: 1536,
    });
    fake.enqueue({ reply: 'Not cached.', usage: { inputTokens: 30, outputTokens: 2, cachedInputTokens: 0 } });
    const uncached = await send(agent.id, { text: 'hi', userId: 'u2' });
    assert.deepEqual(
      tokensOf(uncached.usage),
      { inputTokens: 30, outputTokens: 2, totalTokens: 32 },
      'no hit, no field',
    );
  });
});

describe('cached input tokens in the model span', () => {
  let fake: FakeProviderServer;
  let receiver: FakeOtlpReceiver;
  let t: TestApp;
  before(async () => {
    fake = await startFakeOpenAiServer();
    receiver = await startFakeOtlpReceiver();
    t = await createTestApp({
      env: {
        OPENAI_API_KEY: 'sk-test-openai-000000',
        OPENAI_BASE_URL: fake.baseUrl,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
    });
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
    await fake?.close();
  });

  it('the model span reports the cached input tokens as gen_ai.usage.cache_read.input_tokens', async () => {
    const agent = await t.newAgent({
      model: { provider: 'openai', name: 'gpt-4o-mini' },
      memory: { summary: false, facts: false, recall: false },
    });
    fake.enqueue({ reply: 'Cached.', usage: { inputTokens: 2000, outputTokens: 2, cachedInputTokens: 1536 } });
    const sent = await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'hi' } });
    assert.equal(sent.statusCode, 200, sent.body);
    const span = await eventually(
      async () => receiver.spans().find((each) => each.name === 'chat gpt-4o-mini') ?? null,
      'the model span',
    );
    assert.equal(span.attributes['gen_ai.usage.input_tokens'], 2000);
    assert.equal(span.attributes['gen_ai.usage.cache_read.input_tokens'], 1536);
  });
});

for (const backend of backends) {
  describe(`cached input tokens in the metrics on ${backend.label}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    before(async () => {
      fake = await startFakeOpenAiServer();
      t = await createTestApp({
        backend: backend.name,
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
          AGENTD_METRICS_FLUSH_MS: '600000',
        },
      });
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });

    it('cached input tokens are summed over tool rounds into the reply, the agent metrics and the account usage', async () => {
      const agent = await t.newAgent({
        plugins: [{ name: 'math' }],
        memory: { summary: false, facts: false, recall: false },
      });
      fake.enqueue(
        {
          toolCalls: [{ name: 'calculate', input: { expression: '1+1' } }],
          usage: { inputTokens: 300, outputTokens: 2, cachedInputTokens: 256 },
        },
        { reply: 'It is 2.', usage: { inputTokens: 400, outputTokens: 1, cachedInputTokens: 384 } },
      );
      const response = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: 'add', userId: 'u1' },
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().usage.cachedInputTokens, 640);
      fake.enqueue({ reply: 'Fresh.', usage: { inputTokens: 50, outputTokens: 1 } });
      const fresh = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: 'again', userId: 'u2' },
      });
      assert.equal(fresh.statusCode, 200, fresh.body);

      await t.deps.services.agentMetrics.flush();
      const metrics = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/metrics?interval=day` })).json();
      assert.equal(metrics.totals.inputTokens, 750);
      assert.equal(metrics.totals.cachedInputTokens, 640);
      const usage = (await t.inject({ method: 'GET', url: '/v1/metrics/usage' })).json();
      assert.equal(usage.data.find((entry: any) => entry.agentId === agent.id).cachedInputTokens, 640);
      assert.equal(usage.totals.cachedInputTokens, 640);
      const daily = (await t.inject({ method: 'GET', url: '/v1/metrics/usage/daily' })).json();
      assert.equal(
        daily.data.find((entry: any) => entry.model === 'openai-compatible/test-model').cachedInputTokens,
        640,
      );
    });
  });
}

import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import OpenAI from 'openai';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { turnsOf, type FakeProviderServer } from '../helpers/fake-provider-server.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * The OpenAI-compatible door as its users meet it: the real `openai` client
 * against a listening agentd, with agents on the builtin model and on an
 * OpenAI-compatible provider (the fake on loopback).
 */

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
}

/** A client that does not retry: each test sees the first answer. */
function clientFor(baseURL: string, apiKey: string): OpenAI {
  return new OpenAI({ apiKey, baseURL, maxRetries: 0 });
}

for (const backend of backends) {
  describe(`the OpenAI-compatible door on ${backend.label}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    let openai: OpenAI;
    let baseURL: string;

    before(async () => {
      fake = await startFakeOpenAiServer();
      t = await createTestApp({ backend: backend.name, env: { AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl } });
      baseURL = await listen(t);
      openai = clientFor(baseURL, t.owner.key);
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });
    beforeEach(() => fake.reset());

    const builtinAgent = (fields: Record<string, unknown> = {}) =>
      t.newAgent({ model: { provider: 'builtin', name: 'echo' }, ...fields });
    const providerAgent = (fields: Record<string, unknown> = {}) =>
      t.newAgent({ model: { provider: 'openai-compatible', name: 'test-model' }, ...fields });
    const history = async (agentId: string, userId: string) =>
      (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/messages?userId=${userId}` })).json().data;

    it('answers a completion with the reply, its id, the agent as model, and usage', async () => {
      const agent = await providerAgent();
      fake.enqueue({ reply: 'Hello from the agent.', usage: { inputTokens: 20, outputTokens: 4 } });
      const completion = await openai.chat.completions.create({
        model: agent.id,
        messages: [{ role: 'user', content: 'Hi there' }],
        user: 'u1',
      });
      assert.equal(completion.object, 'chat.completion');
      assert.equal(completion.model, agent.id);
      assert.match(completion.id, /^msg_/);
      assert.equal(completion.choices[0]!.message.role, 'assistant');
      assert.equal(completion.choices[0]!.message.content, 'Hello from the agent.');
      assert.equal(completion.choices[0]!.finish_reason, 'stop');
      assert.deepEqual(completion.usage, { prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 });
      assert.ok(Math.abs(completion.created - Date.now() / 1000) < 60);
      const turns = await history(agent.id, 'u1');
      assert.equal(turns[0].id, completion.id, 'the completion id is the stored reply');
      assert.equal(turns[1].text, 'Hi there');
    });

    it('streams chunks whose deltas join to the reply, a finish reason, usage when asked, and ends', async () => {
      const agent = await providerAgent();
      fake.enqueue({ reply: 'The quick brown fox jumps.', usage: { inputTokens: 9, outputTokens: 5 } });
      const stream = await openai.chat.completions.create({
        model: agent.id,
        messages: [{ role: 'user', content: 'Tell me' }],
        user: 'u-stream',
        stream: true,
        stream_options: { include_usage: true },
      });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      assert.ok(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === agent.id));
      assert.equal(new Set(chunks.map((chunk) => chunk.id)).size, 1, 'every chunk carries the reply id');
      const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
      assert.equal(text, 'The quick brown fox jumps.');
      assert.ok(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length >= 5, 'word by word');
      const finishes = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean);
      assert.deepEqual(finishes, ['stop']);
      const last = chunks.at(-1)!;
      assert.deepEqual(last.choices, []);
      assert.deepEqual(last.usage, { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 });
      const turns = await history(agent.id, 'u-stream');
      assert.equal(turns[0].id, chunks[0]!.id);
      assert.equal(turns[0].text, text);
    });

    it('streams without a usage chunk unless asked, with the helper that collects a whole completion', async () => {
      const agent = await builtinAgent({ bio: 'Ava answers briefly.' });
      const runner = openai.chat.completions.stream({
        model: agent.id,
        messages: [{ role: 'user', content: 'Who are you?' }],
      });
      const seen: string[] = [];
      runner.on('content', (delta) => seen.push(delta));
      const completion = await runner.finalChatCompletion();
      const content = completion.choices[0]!.message.content!;
      assert.ok(content.length > 0);
      assert.equal(seen.join(''), content);
      assert.equal(completion.usage, undefined);
    });

    it('aborts the model call when the client stops reading, and stores what was said as aborted', async () => {
      const agent = await providerAgent();
      fake.enqueue({ reply: 'one two three four five six seven eight', tokenDelayMs: 50 });
      const stream = await openai.chat.completions.create({
        model: agent.id,
        messages: [{ role: 'user', content: 'count' }],
        user: 'u-abort',
        stream: true,
      });
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) break;
      }
      await fake.waitForAbort(0);
      const stored = await eventually(async () => {
        const [latest] = await history(agent.id, 'u-abort');
        return latest?.role === 'agent' ? latest : null;
      }, 'the aborted reply to be stored');
      assert.equal(stored.finishReason, 'aborted');
      assert.ok('one two three four five six seven eight'.startsWith(stored.text));
      assert.notEqual(stored.text, 'one two three four five six seven eight');
    });

    it('remembers the conversation by user: each call sees the earlier turns, and other users do not', async () => {
      const agent = await providerAgent();
      const ask = (content: string, user: string) =>
        openai.chat.completions.create({ model: agent.id, messages: [{ role: 'user', content }], user });
      await ask('My name is Ada.', 'ada');
      await ask('What is my name?', 'ada');
      assert.deepEqual(turnsOf(fake.requests[1]!), [
        'user: My name is Ada.',
        'assistant: Reply to: My name is Ada.',
        'user: What is my name?',
      ]);
      await ask('Hello?', 'bob');
      assert.deepEqual(turnsOf(fake.requests[2]!), ['user: Hello?'], "another user's conversation is apart");
      const turns = await history(agent.id, 'ada');
      assert.deepEqual(turns.map((turn: { role: string; text: string }) => `${turn.role}: ${turn.text}`).reverse(), [
        'user: My name is Ada.',
        'agent: Reply to: My name is Ada.',
        'user: What is my name?',
        'agent: Reply to: What is my name?',
      ]);
    });

    it('sends the last user message; system messages become context; max_tokens and temperature reach the model', async () => {
      const agent = await providerAgent();
      await openai.chat.completions.create({
        model: agent.id,
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'An earlier question the agent does not need' },
          { role: 'assistant', content: 'An earlier answer' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Bonjour ' },
              { type: 'text', text: 'à tous' },
            ],
          },
        ],
        temperature: 0.3,
        max_tokens: 77,
      });
      const request = fake.requests[0]!;
      // One turn: the message, with the system message as its context in the notes before the user's text.
      const turns = turnsOf(request);
      assert.equal(turns.length, 1, JSON.stringify(turns));
      assert.match(
        turns[0]!,
        /^user: <message-notes>\n[\s\S]*Answer in French\.[\s\S]*<\/message-notes>\n\nBonjour à tous$/,
      );
      assert.equal(request.body.temperature, 0.3);
      assert.equal(request.body.max_tokens, 77);
    });

    it('reports length when max_tokens cuts the reply short', async () => {
      const agent = await builtinAgent({ bio: 'Ava is a research assistant who explains things at length.' });
      const completion = await openai.chat.completions.create({
        model: agent.id,
        messages: [{ role: 'user', content: 'Introduce yourself' }],
        max_completion_tokens: 2,
      });
      assert.equal(completion.choices[0]!.finish_reason, 'length');
      assert.ok(completion.usage!.completion_tokens <= 2);
    });

    it('names an agent as agent:<name> when the name is unique, and refuses an ambiguous one', async () => {
      const unique = `Unique ${Math.random().toString(36).slice(2)}`;
      const agent = await builtinAgent({ name: unique });
      const completion = await openai.chat.completions.create({
        model: `agent:${unique}`,
        messages: [{ role: 'user', content: 'hello' }],
      });
      assert.equal(completion.model, agent.id);
      assert.equal((await openai.models.retrieve(`agent:${unique}`)).id, agent.id);

      await builtinAgent({ name: 'Twin' });
      await builtinAgent({ name: 'Twin' });
      await builtinAgent({ name: 'twin' });
      await assert.rejects(
        openai.chat.completions.create({ model: 'agent:Twin', messages: [{ role: 'user', content: 'hi' }] }),
        (error: unknown) => {
          assert.ok(error instanceof OpenAI.BadRequestError);
          assert.equal(error.param, 'model');
          return true;
        },
      );
      const lower = await openai.chat.completions.create({
        model: 'agent:twin',
        messages: [{ role: 'user', content: 'hi' }],
      });
      assert.match(lower.model, /^agt_/, 'names are matched exactly, case included');
    });

    it("lists the account's agents as models, newest first, and gets one", async () => {
      const other = await t.newAccount();
      const theirs = await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Theirs' }, as: other });
      const older = await builtinAgent();
      const newer = await builtinAgent();
      const ids: string[] = [];
      for await (const model of openai.models.list()) {
        assert.equal(model.object, 'model');
        assert.equal(model.owned_by, 'agentd');
        ids.push(model.id);
      }
      assert.ok(ids.indexOf(newer.id) >= 0 && ids.indexOf(newer.id) < ids.indexOf(older.id));
      assert.ok(!ids.includes(theirs.json().id), "another account's agents are not listed");
      const model = await openai.models.retrieve(newer.id);
      assert.equal(model.id, newer.id);
      assert.equal(model.created, Math.floor(Date.parse(newer.createdAt) / 1000));
      await assert.rejects(openai.models.retrieve(theirs.json().id), OpenAI.NotFoundError);
    });

    it('runs the agent’s own tools inside agentd and answers with their result', async () => {
      const agent = await builtinAgent({ plugins: [{ name: 'math' }] });
      const completion = await openai.chat.completions.create({
        model: agent.id,
        messages: [{ role: 'user', content: '/tool calculate {"expression":"2+2"}' }],
        user: 'calc',
      });
      const message = completion.choices[0]!.message;
      assert.ok(message.content!.includes('"result":"4"'), message.content!);
      assert.equal(message.tool_calls, undefined, 'the client is not asked to run the tool');
      assert.equal(completion.choices[0]!.finish_reason, 'stop');
      const turns = await history(agent.id, 'calc');
      assert.ok(turns.some((turn: { role: string; tool?: { name: string } }) => turn.tool?.name === 'calculate'));
    });

    it('answers errors in OpenAI’s shape, which the client raises as its own error classes', async () => {
      const agent = await builtinAgent();
      const message = { role: 'user' as const, content: 'hi' };

      const stranger = clientFor(baseURL, `agd_${'Z'.repeat(40)}`);
      await assert.rejects(stranger.chat.completions.create({ model: agent.id, messages: [message] }), (error) => {
        assert.ok(error instanceof OpenAI.AuthenticationError);
        assert.equal(error.status, 401);
        assert.equal(error.code, 'unauthorized');
        assert.equal(error.type, 'authentication_error');
        return true;
      });
      await assert.rejects(stranger.models.list(), OpenAI.AuthenticationError);

      const reader = await t.newKey(t.owner.accountId, ['agents:read']);
      await assert.rejects(
        clientFor(baseURL, reader.key).chat.completions.create({ model: agent.id, messages: [message] }),
        OpenAI.PermissionDeniedError,
      );

      for (const model of ['gpt-4o', 'agt_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'agent:Nobody by this name']) {
        await assert.rejects(openai.chat.completions.create({ model, messages: [message] }), (error) => {
          assert.ok(error instanceof OpenAI.NotFoundError, model);
          assert.equal(error.code, 'not_found');
          return true;
        });
      }

      await assert.rejects(
        openai.chat.completions.create({ model: agent.id, messages: [{ role: 'assistant', content: 'no question' }] }),
        (error) => {
          assert.ok(error instanceof OpenAI.BadRequestError);
          assert.equal(error.param, 'messages');
          assert.equal(error.code, 'validation_failed');
          return true;
        },
      );

      const raw = await fetch(`${baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.key}`, 'content-type': 'application/json' },
        body: '{"model":',
      });
      assert.equal(raw.status, 400);
      const body = (await raw.json()) as { error: Record<string, unknown> };
      assert.deepEqual(Object.keys(body), ['error']);
      assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
      assert.equal(body.error.code, 'invalid_json');

      const native = await fetch(`${baseURL}/agents/agt_01ARZ3NDEKTSV4RRFFQ69G5FAV`, {
        headers: { authorization: `Bearer ${t.owner.key}` },
      });
      assert.equal(native.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      assert.equal(((await native.json()) as { code: string }).code, 'not_found', 'the native API keeps problem+json');
    });

    it('reports an agent that cannot answer as 503 in OpenAI’s shape', async () => {
      const agent = await builtinAgent({ status: 'inactive' });
      await assert.rejects(
        openai.chat.completions.create({ model: agent.id, messages: [{ role: 'user', content: 'hi' }] }),
        (error) => {
          assert.ok(error instanceof OpenAI.InternalServerError);
          assert.equal(error.status, 503);
          assert.equal(error.code, 'agent_unavailable');
          return true;
        },
      );
    });

    it('raises a provider failure in the middle of a stream as an error from the stream', async () => {
      const agent = await providerAgent();
      // Paced, so that the first words arrive before the failure: a failure before them is retried.
      fake.enqueue({ reply: 'one two three four five', tokenDelayMs: 20, failAfterChunks: 2 });
      const stream = await openai.chat.completions.create({
        model: agent.id,
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      let text = '';
      await assert.rejects(
        (async () => {
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        })(),
        (error) => {
          assert.ok(error instanceof OpenAI.APIError);
          assert.match(error.message, /provider/i);
          return true;
        },
      );
      assert.equal(text, 'one two ');
    });
  });

  describe(`the OpenAI-compatible door's rate limits on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    let openai: OpenAI;
    before(async () => {
      t = await createTestApp({ backend: backend.name, env: { AGENTD_RATE_LIMITS: 'sendMessage=2,listAgents=1' } });
      openai = clientFor(await listen(t), t.owner.key);
    });
    after(async () => t?.close());

    it('shares the agent’s sendMessage budget with the native route, whichever way the agent is named', async () => {
      const name = `Limited ${Math.random().toString(36).slice(2)}`;
      const agent = await t.newAgent({ name });
      const native = await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'a' } });
      assert.equal(native.statusCode, 200);
      const { response } = await openai.chat.completions
        .create({ model: `agent:${name}`, messages: [{ role: 'user', content: 'b' }] })
        .withResponse();
      assert.equal(response.headers.get('x-ratelimit-remaining'), '0');
      await assert.rejects(
        openai.chat.completions.create({ model: agent.id, messages: [{ role: 'user', content: 'c' }] }),
        (error) => {
          assert.ok(error instanceof OpenAI.RateLimitError);
          assert.equal(error.code, 'rate_limited');
          assert.ok(Number(error.headers?.get('retry-after')) >= 1);
          return true;
        },
      );
      const other = await t.newAgent();
      await openai.chat.completions.create({ model: other.id, messages: [{ role: 'user', content: 'd' }] });
    });

    it('counts the models list against listAgents', async () => {
      await openai.models.list();
      await assert.rejects(openai.models.list(), OpenAI.RateLimitError);
    });
  });
}

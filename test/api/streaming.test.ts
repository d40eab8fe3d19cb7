import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { eventually } from '../helpers/wait.js';
import { deltaText, readEvents } from '../helpers/sse-client.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/** Streamed replies, disconnects and message limits, over real HTTP. */
for (const backend of backends) {
  describe(`streamed replies on ${backend.name}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    let base: string;
    before(async () => {
      fake = await startFakeOpenAiServer();
      t = await createTestApp({
        backend: backend.name,
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
          AGENTD_RATE_LIMITS: 'sendMessage=60,sendMessageConcurrency=10',
          AGENTD_SSE_KEEPALIVE_MS: '50',
        },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });
    beforeEach(() => fake.reset());

    const newAgent = (fields: Record<string, unknown> = {}) => t.newAgent(fields);
    function post(agentId: string, body: Record<string, unknown>, signal?: AbortSignal) {
      return fetch(`${base}/v1/agents/${agentId}/messages`, {
        method: 'POST',
        headers: { ...t.owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
    }
    const storedTurns = async (agentId: string, query: string) =>
      (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/messages${query}` })).json().data;

    it('sends started, deltas and completed, in order, the deltas joining to the text', async () => {
      const agent = await newAgent();
      fake.enqueue({ reply: 'The quick brown fox jumps.' });
      const response = await post(agent.id, { text: 'hi', userId: 'u1', stream: true });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      assert.equal(response.headers.get('cache-control'), 'no-cache, no-transform');
      assert.equal(response.headers.get('x-accel-buffering'), 'no');
      assert.ok(response.headers.get('x-request-id'));
      assert.ok(response.headers.get('x-ratelimit-remaining'));
      const events = await readEvents(response.body!).rest();
      const names = events.map((event) => event.event);
      assert.equal(names[0], 'message.started');
      assert.equal(names.at(-1), 'message.completed');
      assert.ok(names.slice(1, -1).every((name) => name === 'message.delta'));
      assert.equal(names.length, 2 + 5);
      const [started] = events;
      const completed = events.at(-1)!.data;
      assert.deepEqual(Object.keys(started!.data).sort(), [
        'agentId',
        'createdAt',
        'id',
        'model',
        'roomId',
        'runId',
        'userId',
      ]);
      assert.equal(completed.id, started!.data.id);
      assert.ok(events.slice(1, -1).every((event) => event.data.id === started!.data.id));
      assert.equal(deltaText(events), completed.text);
      assert.equal(completed.text, 'The quick brown fox jumps.');
      assert.equal(completed.finishReason, 'stop');
      assert.ok(completed.usage.totalTokens > 0);
      const stored = await storedTurns(agent.id, '?userId=u1');
      assert.equal(stored[0].text, completed.text);
    });

    it('streams the builtin model word by word', async () => {
      const agent = await newAgent({ model: { provider: 'builtin', name: 'echo' } });
      const events = await readEvents((await post(agent.id, { text: 'hi', stream: true })).body!).rest();
      const deltas = events.filter((event) => event.event === 'message.delta');
      assert.ok(deltas.length > 10);
      assert.equal(deltaText(deltas), events.at(-1)!.data.text);
      assert.deepEqual(events.at(-1)!.data.model, { provider: 'builtin', name: 'echo' });
    });

    it('sends keep-alive comments while the model is silent', async () => {
      const agent = await newAgent();
      fake.enqueue({ reply: 'slow answer', tokenDelayMs: 300 });
      const reader = readEvents((await post(agent.id, { text: 'hi', stream: true })).body!);
      const events = await reader.rest();
      assert.equal(events.at(-1)!.event, 'message.completed');
      assert.ok(reader.comments.includes('keep-alive'), `comments: ${JSON.stringify(reader.comments)}`);
    });

    it('aborts the provider call when the client disconnects and stores the partial reply as aborted', async () => {
      const agent = await newAgent();
      fake.enqueue({ reply: 'one two three four five six seven eight nine ten', tokenDelayMs: 100 });
      const controller = new AbortController();
      const response = await post(agent.id, { text: 'count', userId: 'leaver', stream: true }, controller.signal);
      const reader = readEvents(response.body!);
      assert.equal((await reader.next())?.event, 'message.started');
      const first = await reader.next();
      const second = await reader.next();
      assert.deepEqual([first?.data.text, second?.data.text], ['one ', 'two ']);
      controller.abort();
      await fake.waitForAbort(0);
      assert.equal(fake.requests[0]?.completed, false);
      const turns = await waitForTurns(agent.id, '?userId=leaver', 2);
      assert.equal(turns[0].role, 'agent');
      assert.equal(turns[0].finishReason, 'aborted');
      assert.ok(turns[0].text.startsWith('one two '), turns[0].text);
      assert.ok(!turns[0].text.includes('ten'));
      assert.equal(turns[1].text, 'count');
    });

    async function waitForTurns(agentId: string, query: string, count: number) {
      // The server learns of the disconnect asynchronously: look again until it has stored the reply.
      return eventually(async () => {
        const turns = await storedTurns(agentId, query);
        return turns.length >= count ? turns : null;
      }, 'the aborted reply to be stored');
    }

    it('lets 10 messages be in flight per agent: the 11th of 11 simultaneous is 429 concurrency_limited, and slots free up', async () => {
      const agent = await newAgent();
      fake.setDefault({ hang: true });
      const controllers = Array.from({ length: 11 }, () => new AbortController());
      const pending = controllers.map((controller, index) =>
        post(agent.id, { text: `message ${index}`, stream: true }, controller.signal).catch((error: Error) => error),
      );
      await fake.waitForRequests(10);
      const first = await Promise.race(pending);
      assert.ok(first instanceof Response);
      assert.equal(first.status, 429);
      const problem = (await first.json()) as { code: string };
      assert.equal(problem.code, 'concurrency_limited');
      assert.ok(first.headers.get('retry-after'));
      assert.equal(fake.requests.length, 10, 'the refused message never reached the provider');
      for (const controller of controllers) controller.abort();
      const settled = await Promise.all(pending);
      assert.equal(settled.filter((result) => result instanceof Response && result.status === 429).length, 1);
      for (let index = 0; index < 10; index += 1) await fake.waitForAbort(index);
      fake.setDefault({});
      // Slots are released once the aborted calls have wound down.
      const response = await eventually(async () => {
        const attempt = await post(agent.id, { text: 'after' });
        return attempt.status === 429 ? null : attempt;
      }, 'a concurrency slot to be free again');
      assert.equal(response?.status, 200);
    });

    it('allows 60 messages a minute per agent: the 61st is 429 rate_limited', async () => {
      const agent = await newAgent({ model: { provider: 'builtin', name: 'echo' } });
      const other = await newAgent({ model: { provider: 'builtin', name: 'echo' } });
      for (let index = 0; index < 60; index += 1) {
        const response = await post(agent.id, { text: `m${index}` });
        assert.equal(response.status, 200);
        await response.arrayBuffer();
      }
      const refused = await post(agent.id, { text: 'one too many' });
      assert.equal(refused.status, 429);
      assert.equal(((await refused.json()) as { code: string }).code, 'rate_limited');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.equal(refused.headers.get('x-ratelimit-limit'), '60');
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
      assert.equal((await post(other.id, { text: 'another agent has its own budget' })).status, 200);
    });

    it('answers problems before the stream begins as ordinary JSON', async () => {
      const agent = await newAgent({ status: 'inactive' });
      const response = await post(agent.id, { text: 'hi', stream: true });
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      assert.equal(((await response.json()) as { code: string }).code, 'agent_unavailable');
    });
  });
}

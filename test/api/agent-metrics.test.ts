import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { readEvents } from '../helpers/sse-client.js';
import { backends, createTestApp, generousRateLimits, ManualClock, type TestApp } from '../helpers/test-app.js';

/**
 * GET /v1/agents/{agentId}/metrics and GET /v1/metrics/usage: a known
 * sequence of messages (completed, failed in three ways, streamed, with a tool
 * call, refused by the rate and the concurrency limit, through both doors)
 * sent at set times of a settable clock yields exactly these counts per minute,
 * hour and day, once the recorder has flushed.
 */
const minuteA = '2026-11-22T10:00:00.000Z';
const minuteB = '2026-11-22T10:01:00.000Z';
const minuteC = '2026-11-22T10:02:00.000Z';

const zeroBucket = {
  messages: 0,
  streamedMessages: 0,
  failedMessages: 0,
  failuresByType: {},
  runsByTrigger: { message: 0, task: 0, platform: 0, door: 0, mcp: 0, a2a: 0, approval: 0, eval: 0 },
  toolCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  latencyMs: { p50: null, p95: null, p99: null },
  timeToFirstTokenMs: { p50: null, p95: null },
  rateLimited: 0,
  concurrencyRejected: 0,
  memoryUpdates: 0,
  imagesIn: 0,
  imagesOut: 0,
  costUsd: 0,
  unpricedMessages: 0,
};

/** A bucket's counts without its percentiles (which depend on how fast the machine is). */
function countsOf(bucket: any) {
  const { latencyMs, timeToFirstTokenMs, start, ...counts } = bucket;
  return counts;
}

for (const backend of backends) {
  describe(`per-agent metrics on ${backend.label}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    let clock: ManualClock;
    let base: string;
    let agentId: string;
    let otherAgentId: string;

    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...t.owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const send = (body: Record<string, unknown>, id = agentId) => post(`/v1/agents/${id}/messages`, body);
    const metrics = (query: string, id = agentId, as = t.owner) =>
      t.inject({ method: 'GET', url: `/v1/agents/${id}/metrics${query}`, as });

    before(async () => {
      fake = await startFakeOpenAiServer();
      clock = new ManualClock(Date.parse('2026-11-22T10:00:30.000Z'));
      t = await createTestApp({
        backend: backend.name,
        clock,
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
          // Priced so the costs sum with the tokens: a message costs its input tokens plus twice its output, in micro-dollars.
          AGENTD_MODEL_PRICES: JSON.stringify({
            'openai-compatible': {
              'test-model': { inputPerMillion: 1, outputPerMillion: 2 },
              'other-model': { inputPerMillion: 1, outputPerMillion: 2 },
            },
          }),
          AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
          AGENTD_RATE_LIMITS: `${generousRateLimits},sendMessage=9,sendMessageConcurrency=1`,
          // Only the test's own flushes write: what is counted before one is not yet visible.
          AGENTD_METRICS_FLUSH_MS: '600000',
        },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      // Memory off: its background model calls would add tokens of their own to the provider's counters.
      agentId = (
        await t.newAgent({
          name: 'Counted',
          plugins: [{ name: 'math' }],
          memory: { summary: false, facts: false, recall: false },
        })
      ).id;
      otherAgentId = (await t.newAgent({ name: 'Other' })).id;

      // Minute A (10:00:30): six accepted messages.
      fake.enqueue({ reply: 'Hello there', usage: { inputTokens: 10, outputTokens: 5 } });
      assert.equal((await send({ text: 'one', userId: 'u1' })).status, 200);
      fake.enqueue(
        {
          toolCalls: [{ name: 'calculate', input: { expression: '1+1' } }],
          usage: { inputTokens: 3, outputTokens: 2 },
        },
        { reply: 'It is 2.', usage: { inputTokens: 4, outputTokens: 1 } },
      );
      const withTool = await send({ text: 'add', userId: 'u1' });
      assert.equal(withTool.status, 200);
      assert.equal(((await withTool.json()) as any).toolCalls.length, 1);
      fake.enqueue({ reply: 'Streamed answer', usage: { inputTokens: 20, outputTokens: 2 } });
      const streamed = await send({ text: 'stream', stream: true });
      assert.equal((await readEvents(streamed.body!).rest()).at(-1)!.event, 'message.completed');
      fake.enqueue({ status: 500 }, { status: 500 }, { status: 500 });
      assert.equal((await send({ text: 'fails' })).status, 503);
      fake.enqueue({ reply: 'one two three four', tokenDelayMs: 20, failAfterChunks: 2 });
      const brokenStream = await send({ text: 'breaks', stream: true });
      assert.equal((await readEvents(brokenStream.body!).rest()).at(-1)!.event, 'message.failed');
      fake.enqueue({ status: 400 });
      assert.equal((await send({ text: 'refused by the provider' })).status, 503);

      // Minute B (10:01:00.5, within the same rate window): a slow stream holds the agent's one slot while
      // another message is refused, a message through the OpenAI-compatible door, two over the rate limit of
      // nine a minute; and one to another agent.
      clock.advance(30_500);
      fake.enqueue({ reply: 'one two three', tokenDelayMs: 100, usage: { inputTokens: 5, outputTokens: 3 } });
      const slow = await send({ text: 'slowly', stream: true });
      assert.equal(slow.status, 200);
      const refused = await send({ text: 'meanwhile' });
      assert.equal(refused.status, 429);
      assert.equal(((await refused.json()) as any).code, 'concurrency_limited');
      assert.equal((await readEvents(slow.body!).rest()).at(-1)!.event, 'message.completed');
      fake.enqueue({ reply: 'via the door', usage: { inputTokens: 6, outputTokens: 2 } });
      const door = await post('/v1/chat/completions', { model: agentId, messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(door.status, 200);
      for (let index = 0; index < 2; index += 1) {
        const limited = await send({ text: 'too many' });
        assert.equal(limited.status, 429);
        assert.equal(((await limited.json()) as any).code, 'rate_limited');
      }
      fake.enqueue({ reply: 'elsewhere', usage: { inputTokens: 100, outputTokens: 50 } });
      assert.equal((await send({ text: 'other' }, otherAgentId)).status, 200);
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });

    it('shows nothing before a flush and everything after it, minute by minute, with empty minutes as zeros', async () => {
      const query = `?from=${minuteA}&to=2026-11-22T10:03:00Z&interval=minute`;
      const before = await metrics(query);
      assert.equal(before.statusCode, 200, before.body);
      assert.equal(before.json().totals.messages, 0, 'nothing is written before the flush');

      await t.deps.services.agentMetrics.flush();
      const response = await metrics(query);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.agentId, agentId);
      assert.equal(body.from, minuteA);
      assert.equal(body.to, '2026-11-22T10:03:00.000Z');
      assert.equal(body.interval, 'minute');
      assert.deepEqual(
        body.buckets.map((bucket: any) => bucket.start),
        [minuteA, minuteB, minuteC],
      );
      const [first, second, third] = body.buckets;
      assert.deepEqual(countsOf(first), {
        messages: 6,
        streamedMessages: 2,
        failedMessages: 3,
        failuresByType: { provider_error: 2, provider_rejected: 1 },
        runsByTrigger: { message: 6, task: 0, platform: 0, door: 0, mcp: 0, a2a: 0, approval: 0, eval: 0 },
        toolCalls: 1,
        inputTokens: 37,
        outputTokens: 10,
        cachedInputTokens: 0,
        rateLimited: 0,
        concurrencyRejected: 0,
        memoryUpdates: 0,
        imagesIn: 0,
        imagesOut: 0,
        // $1 per million input tokens, $2 per million output tokens (AGENTD_MODEL_PRICES above).
        costUsd: 0.000057,
        unpricedMessages: 0,
      });
      // Three completed replies, two streams that sent text (one completed, one broke off after it).
      for (const value of Object.values(first.latencyMs)) assert.ok(Number.isInteger(value), JSON.stringify(first));
      for (const value of Object.values(first.timeToFirstTokenMs)) assert.ok(Number.isInteger(value));
      assert.deepEqual(countsOf(second), {
        messages: 2,
        streamedMessages: 1,
        failedMessages: 0,
        failuresByType: {},
        runsByTrigger: { message: 1, task: 0, platform: 0, door: 1, mcp: 0, a2a: 0, approval: 0, eval: 0 },
        toolCalls: 0,
        inputTokens: 11,
        outputTokens: 5,
        cachedInputTokens: 0,
        rateLimited: 2,
        concurrencyRejected: 1,
        memoryUpdates: 0,
        imagesIn: 0,
        imagesOut: 0,
        // $1 per million input tokens, $2 per million output tokens (AGENTD_MODEL_PRICES above).
        costUsd: 0.000021,
        unpricedMessages: 0,
      });
      // The slow stream paced three words 100 ms apart: its latency is at least 200 ms, its first token sooner.
      assert.ok(second.latencyMs.p99 >= 200, JSON.stringify(second.latencyMs));
      assert.ok(second.timeToFirstTokenMs.p50 < second.latencyMs.p99, JSON.stringify(second));
      assert.deepEqual(third, { start: minuteC, ...zeroBucket });
      assert.deepEqual(countsOf(body.totals), {
        messages: 8,
        streamedMessages: 3,
        failedMessages: 3,
        failuresByType: { provider_error: 2, provider_rejected: 1 },
        runsByTrigger: { message: 7, task: 0, platform: 0, door: 1, mcp: 0, a2a: 0, approval: 0, eval: 0 },
        toolCalls: 1,
        inputTokens: 48,
        outputTokens: 15,
        cachedInputTokens: 0,
        rateLimited: 2,
        concurrencyRejected: 1,
        memoryUpdates: 0,
        imagesIn: 0,
        imagesOut: 0,
        // $1 per million input tokens, $2 per million output tokens (AGENTD_MODEL_PRICES above).
        costUsd: 0.000078,
        unpricedMessages: 0,
      });
    });

    it('sums minutes into hours and days, and defaults to the last 24 hours by hour', async () => {
      await t.deps.services.agentMetrics.flush();
      const hour = (await metrics(`?from=2026-11-22T10:20:00Z&to=2026-11-22T12:00:00Z&interval=hour`)).json();
      assert.equal(hour.from, '2026-11-22T10:00:00.000Z', 'from is rounded down to the interval');
      assert.equal(hour.buckets.length, 2);
      assert.deepEqual(countsOf(hour.buckets[0]), countsOf(hour.totals));
      assert.equal(hour.buckets[0].messages, 8);
      assert.deepEqual(hour.buckets[1], { start: '2026-11-22T11:00:00.000Z', ...zeroBucket });

      const day = (await metrics(`?from=2026-11-21T00:00:00Z&to=2026-11-23T00:00:00Z&interval=day`)).json();
      assert.deepEqual(
        day.buckets.map((bucket: any) => [bucket.start, bucket.messages, bucket.inputTokens]),
        [
          ['2026-11-21T00:00:00.000Z', 0, 0],
          ['2026-11-22T00:00:00.000Z', 8, 48],
        ],
      );

      const standard = (await metrics('')).json();
      assert.equal(standard.interval, 'hour');
      assert.equal(standard.from, '2026-11-21T10:00:00.000Z');
      assert.equal(standard.to, '2026-11-22T10:01:00.500Z');
      assert.equal(standard.buckets.length, 25);
      assert.equal(standard.totals.messages, 8);
      assert.equal(standard.totals.failedMessages, 3);
    });

    it('gives the usage of the account in total and per agent, paged', async () => {
      await t.deps.services.agentMetrics.flush();
      const usage = (url: string, as = t.owner) => t.inject({ method: 'GET', url, as });
      const response = await usage('/v1/metrics/usage?from=2026-11-22T00:00:00Z&to=2026-11-23T00:00:00Z');
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.accountId, t.owner.accountId);
      assert.equal(body.totals.messages, 9);
      assert.equal(body.totals.inputTokens, 148);
      assert.equal(body.totals.outputTokens, 65);
      const byAgent = Object.fromEntries(body.data.map((entry: any) => [entry.agentId, entry]));
      assert.deepEqual(Object.keys(byAgent).sort(), [agentId, otherAgentId].sort());
      assert.equal(byAgent[agentId].messages, 8);
      assert.equal(byAgent[agentId].rateLimited, 2);
      assert.equal(byAgent[otherAgentId].messages, 1);
      assert.equal(byAgent[otherAgentId].inputTokens, 100);

      const first = (await usage('/v1/metrics/usage?from=2026-11-22T00:00:00Z&limit=1')).json();
      assert.equal(first.data.length, 1);
      assert.equal(first.pagination.hasMore, true);
      const second = (
        await usage(`/v1/metrics/usage?from=2026-11-22T00:00:00Z&limit=1&cursor=${first.pagination.nextCursor}`)
      ).json();
      assert.equal(second.data.length, 1);
      assert.equal(second.pagination.hasMore, false);
      assert.deepEqual([first.data[0].agentId, second.data[0].agentId], [agentId, otherAgentId].sort());
      // The whole-account totals do not depend on the page.
      assert.equal(second.totals.messages, 9);

      const stranger = await t.newAccount();
      const theirs = (await usage('/v1/metrics/usage?from=2026-11-22T00:00:00Z', stranger)).json();
      assert.deepEqual(theirs.data, []);
      assert.equal(theirs.totals.messages, 0);
    });

    it('gives the usage per day and per model, under the model each agent is set to now', async () => {
      await t.deps.services.agentMetrics.flush();
      const renamed = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${otherAgentId}`,
        payload: { model: { provider: 'openai-compatible', name: 'other-model' } },
      });
      assert.equal(renamed.statusCode, 200, renamed.body);
      const daily = (query: string, as = t.owner) =>
        t.inject({ method: 'GET', url: `/v1/metrics/usage/daily${query}`, as });
      const response = await daily('?from=2026-11-20T12:00:00Z&to=2026-11-23T00:00:00Z');
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.from, '2026-11-20T00:00:00.000Z', 'the range starts at the day of `from`');
      assert.deepEqual(body.data, [
        {
          date: '2026-11-22',
          model: 'openai-compatible/other-model',
          agents: 1,
          messages: 1,
          failedMessages: 0,
          toolCalls: 0,
          inputTokens: 100,
          outputTokens: 50,
          cachedInputTokens: 0,
          costUsd: 0.0002,
          unpricedMessages: 0,
        },
        {
          date: '2026-11-22',
          model: 'openai-compatible/test-model',
          agents: 1,
          messages: 8,
          failedMessages: 3,
          toolCalls: 1,
          inputTokens: 48,
          outputTokens: 15,
          cachedInputTokens: 0,
          costUsd: 0.000078,
          unpricedMessages: 0,
        },
      ]);

      const stranger = await t.newAccount();
      assert.deepEqual((await daily('?from=2026-11-20T00:00:00Z', stranger)).json().data, []);
      const tooLong = await daily('?from=2025-01-01T00:00:00Z&to=2026-11-23T00:00:00Z');
      assert.equal(tooLong.statusCode, 400);
      assert.equal(tooLong.json().errors[0].path, '/query/from');
    });

    it("answers 404 for another account's agent and an unknown one", async () => {
      const stranger = await t.newAccount();
      const response = await metrics('', agentId, stranger);
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().code, 'not_found');
      assert.equal((await metrics('', 'agt_01JZZZZZZZZZZZZZZZZZZZZZZZ')).statusCode, 404);
    });

    it('refuses bad ranges and intervals with a pointer, before reading anything', async () => {
      const cases: Array<[string, string]> = [
        ['?interval=week', '/query/interval'],
        ['?from=yesterday', '/query/from'],
        ['?from=2026-11-22T11:00:00Z&to=2026-11-22T10:00:00Z', '/query/from'],
        ['?from=2026-11-01T00:00:00Z&to=2026-11-22T00:00:00Z&interval=minute', '/query/from'],
        ['?unknown=1', '/query'],
      ];
      for (const [query, path] of cases) {
        const response = await metrics(query);
        assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
        assert.ok(
          response.json().errors.some((error: { path: string }) => error.path.startsWith(path)),
          `${query}: ${response.body}`,
        );
      }
      const cursor = await t.inject({ method: 'GET', url: '/v1/metrics/usage?cursor=bm90LWEtY3Vyc29y' });
      assert.equal(cursor.statusCode, 400);
      assert.equal(cursor.json().errors[0].path, '/query/cursor');
    });

    it('exposes model calls and tokens by provider on /metrics, never by agent', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(response.statusCode, 200);
      const text = response.body;
      assert.match(
        text,
        /agentd_model_call_duration_seconds_count\{provider="openai-compatible",outcome="success"\} \d+/,
      );
      assert.match(
        text,
        /agentd_model_call_duration_seconds_count\{provider="openai-compatible",outcome="unavailable"\} 2/,
      );
      assert.match(
        text,
        /agentd_model_call_duration_seconds_count\{provider="openai-compatible",outcome="rejected"\} 1/,
      );
      assert.match(text, /agentd_model_tokens_total\{provider="openai-compatible",direction="input"\} 148/);
      assert.ok(!text.includes(agentId) && !text.includes(otherAgentId), 'no agent id in the Prometheus metrics');
    });
  });
}

describe('metrics retention and the switch', () => {
  it('removes minutes older than AGENTD_METRICS_RETENTION_DAYS when it flushes', async () => {
    const clock = new ManualClock(Date.parse('2026-11-22T10:00:05.000Z'));
    const t = await createTestApp({
      clock,
      env: { AGENTD_METRICS_RETENTION_DAYS: '2', AGENTD_METRICS_FLUSH_MS: '600000' },
    });
    try {
      const agent = await t.newAgent();
      const send = () => t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'hi' } });
      const day = (from: string) =>
        t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/metrics?from=${from}&interval=day` });
      assert.equal((await send()).statusCode, 200);
      await t.deps.services.agentMetrics.flush();
      clock.advance(24 * 60 * 60 * 1000);
      assert.equal((await send()).statusCode, 200);
      await t.deps.services.agentMetrics.flush();
      const both = (await day('2026-11-22T00:00:00Z')).json();
      assert.deepEqual(
        both.buckets.map((bucket: any) => bucket.messages),
        [1, 1],
      );
      // Two days after the first message it is past the retention; the second is not.
      clock.advance(24 * 60 * 60 * 1000 + 60_000);
      await t.deps.services.agentMetrics.flush();
      const after = (await day('2026-11-22T00:00:00Z')).json();
      assert.deepEqual(
        after.buckets.map((bucket: any) => bucket.messages),
        [0, 1, 0],
      );
    } finally {
      await t.close();
    }
  });

  it('records nothing with AGENTD_AGENT_METRICS=off, and still answers', async () => {
    const t = await createTestApp({ env: { AGENTD_AGENT_METRICS: 'off' } });
    try {
      const agent = await t.newAgent();
      const sent = await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'hi' } });
      assert.equal(sent.statusCode, 200);
      await t.deps.services.agentMetrics.flush();
      const response = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/metrics` });
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().totals.messages, 0);
    } finally {
      await t.close();
    }
  });

  it('writes what it gathered when the app closes (graceful shutdown)', async () => {
    const t = await createTestApp({ env: { AGENTD_METRICS_FLUSH_MS: '600000' } });
    const agent = await t.newAgent();
    assert.equal(
      (await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'hi' } })).statusCode,
      200,
    );
    const repository = t.deps.services.repositories.agentMetrics;
    const range = { accountId: t.owner.accountId, from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' };
    assert.equal((await repository.accountTotals(range)).messages, 0);
    await t.deps.services.agentMetrics.close();
    assert.equal((await repository.accountTotals(range)).messages, 1);
    await t.close();
  });
});

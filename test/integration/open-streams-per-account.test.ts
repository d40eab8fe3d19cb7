import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { MemoryConcurrencyLimiter } from '../../src/limits/memory-concurrency-limiter.js';
import { redisSkip, redisUrl } from '../helpers/environment.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { sendStreamedMessage, type StreamedMessage } from '../helpers/message-stream.js';
import { inspectionClient, randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

/**
 * AGENTD_MAX_OPEN_STREAMS_PER_ACCOUNT: an account holds at most that many
 * streamed replies open at once, over all its agents, counted by the
 * concurrency limiter (in this process, or in Redis for every instance); the
 * next stream is 429 `concurrency_limited` before it begins, and a slot is
 * free again as soon as a stream ends, however it ends.
 */

const maxOpenStreams = 2;

const limiters = [
  { label: 'in this process', skip: false as const, redis: false },
  { label: 'in Redis', skip: redisSkip, redis: true },
];

for (const limiter of limiters) {
  describe(`open streams per account, counted ${limiter.label}`, { skip: limiter.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    let base: string;
    let redis: Redis | null = null;
    const redisPrefix = randomRedisPrefix();
    const open: StreamedMessage[] = [];

    before(async () => {
      fake = await startFakeOpenAiServer();
      t = await createTestApp({
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
          // Longer than any test: a stream the provider keeps silent stays open until its client hangs up.
          AGENTD_PROVIDER_TIMEOUT_MS: '120000',
          AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
          AGENTD_CIRCUIT_FAILURE_THRESHOLD: '1000',
          AGENTD_MAX_OPEN_STREAMS_PER_ACCOUNT: String(maxOpenStreams),
          ...(limiter.redis ? { REDIS_URL: redisUrl as string, AGENTD_REDIS_PREFIX: redisPrefix } : {}),
        },
      });
      if (limiter.redis) redis = inspectionClient();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(async () => {
      for (const stream of open) stream.hangUp();
      await t?.close();
      await fake?.close();
      if (limiter.redis) {
        redis?.disconnect();
        await removeRedisKeys(redisPrefix);
      }
    });
    beforeEach(() => {
      fake.reset();
      // Words a minute apart: a stream stays open until its client hangs up (the fake's pause ends with it).
      fake.setDefault({ reply: 'one two three', tokenDelayMs: 60_000 });
    });

    /** Open-stream slots the account holds, where the limiter keeps them. */
    const heldStreams = async (account: TestAccount): Promise<number> => {
      const key = `open-streams:${account.accountId}`;
      if (redis !== null) return redis.zcard(`${redisPrefix}concurrency:${key}`);
      assert.ok(t.deps.concurrencyLimiter instanceof MemoryConcurrencyLimiter);
      return t.deps.concurrencyLimiter.heldCount(key);
    };
    const heldBecomes = async (account: TestAccount, count: number) => {
      const took = await waitFor(async () => (await heldStreams(account)) === count, 3_000);
      assert.notEqual(took, null, `expected ${count} open streams, the limiter holds ${await heldStreams(account)}`);
    };

    const newAgentOf = async (account: TestAccount): Promise<string> => {
      const response = await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Ava' }, as: account });
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id;
    };
    const startStream = async (account: TestAccount, agentId: string) => {
      const stream = await sendStreamedMessage(base, account.key, agentId, { text: 'hello', userId: 'u1' });
      if (stream.status === 200) {
        open.push(stream);
        assert.equal((await stream.events!.next())?.event, 'message.started');
      }
      return stream;
    };

    it('refuses a stream beyond the cap with 429 concurrency_limited, over all the agents of the account', async () => {
      const account = await t.newAccount();
      const agents = [await newAgentOf(account), await newAgentOf(account), await newAgentOf(account)];
      const first = await startStream(account, agents[0]!);
      const second = await startStream(account, agents[1]!);
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      assert.equal(await heldStreams(account), 2);

      const refused = await startStream(account, agents[2]!);
      assert.equal(refused.status, 429);
      assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
      assert.equal(refused.problem?.code, 'concurrency_limited');
      assert.equal(refused.headers['retry-after'], '1');
      assert.match(String(refused.problem?.detail), /already has 2 streamed replies open/);
      assert.equal(fake.requests.length, 2, 'a refused stream never reaches the model');

      // The cap is on streams: a JSON reply from the same account still goes through.
      fake.enqueue({ reply: 'Short answer.' });
      const json = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agents[2]}/messages`,
        payload: { text: 'hello' },
        as: account,
      });
      assert.equal(json.statusCode, 200, json.body);

      // The cap is per account: another account streams at once.
      const other = await t.newAccount();
      const elsewhere = await startStream(other, await newAgentOf(other));
      assert.equal(elsewhere.status, 200);

      // A client that hangs up frees its slot, and the next stream is admitted.
      first.hangUp();
      await heldBecomes(account, 1);
      const third = await startStream(account, agents[2]!);
      assert.equal(third.status, 200, JSON.stringify(third.problem));
      for (const stream of [second, third, elsewhere]) stream.hangUp();
      await heldBecomes(account, 0);
      await heldBecomes(other, 0);
    });

    it('frees the slot of a stream that completes, fails mid-answer, or fails before it began', async () => {
      const account = await t.newAccount();
      const agentId = await newAgentOf(account);

      fake.enqueue({ reply: 'All done.' });
      const completed = await startStream(account, agentId);
      assert.equal((await completed.events!.rest()).at(-1)?.event, 'message.completed');
      await heldBecomes(account, 0);

      fake.enqueue({ reply: 'one two three', tokenDelayMs: 20, failAfterChunks: 1 });
      const failed = await startStream(account, agentId);
      assert.equal((await failed.events!.rest()).at(-1)?.event, 'message.failed');
      await heldBecomes(account, 0);

      fake.enqueue({ status: 500 }, { status: 500 }, { status: 500 });
      const unavailable = await startStream(account, agentId);
      assert.equal(unavailable.status, 503);
      await heldBecomes(account, 0);

      // Both slots are there to take: the cap was not worn down by the streams above.
      const streams = [await startStream(account, agentId), await startStream(account, agentId)];
      assert.deepEqual(
        streams.map((stream) => stream.status),
        [200, 200],
      );
      for (const stream of streams) stream.hangUp();
      await heldBecomes(account, 0);
    });
  });
}

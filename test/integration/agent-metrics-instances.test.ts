import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { createDependencies, type AppDeps } from '../../src/dependencies.js';
import type { App } from '../../src/http/app-instance.js';
import { createLogger } from '../../src/logger.js';
import { postgresSkip } from '../helpers/environment.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { createTestApp, generousRateLimits, ManualClock, type TestApp } from '../helpers/test-app.js';
import { suiteLogger } from '../helpers/suite-log.js';

/**
 * Two instances (two apps, each with its own recorder, pool and limits) on
 * one PostgreSQL schema write the same agent's same minute: the additive
 * upserts add both instances' counts into the one row, a flush that finds the
 * row already there adds to it rather than replacing it, and what one
 * instance gathered since its last flush is written when it shuts down.
 */
describe('per-agent metrics from two instances on one PostgreSQL', { skip: postgresSkip }, () => {
  let fake: FakeProviderServer;
  let first: TestApp;
  let secondDeps: AppDeps;
  let second: App;
  const clock = new ManualClock(Date.parse('2026-11-22T14:00:10.000Z'));

  before(async () => {
    fake = await startFakeOpenAiServer();
    fake.setDefault({ reply: 'Counted reply', usage: { inputTokens: 7, outputTokens: 3 } });
    first = await createTestApp({
      backend: 'postgres',
      clock,
      env: {
        AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
        AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
        AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
        AGENTD_RATE_LIMITS: generousRateLimits,
        AGENTD_METRICS_FLUSH_MS: '600000',
      },
    });
    // The second instance: the same configuration and the same database schema.
    secondDeps = await createDependencies(first.config, {
      logger: suiteLogger() ?? createLogger('silent'),
      clock,
      database: { searchPath: first.deps.database.schema! },
    });
    second = await buildApp({ config: first.config, deps: secondDeps });
  });
  after(async () => {
    await second?.close();
    await secondDeps?.close();
    await first?.close();
    await fake?.close();
  });

  const send = (app: App, agentId: string, body: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: `/v1/agents/${agentId}/messages`,
      headers: first.owner.headers,
      payload: body,
    });

  it('adds both instances’ counts into the same minute', async () => {
    const agent = await first.newAgent({ name: 'Shared' });
    for (let index = 0; index < 3; index += 1) {
      assert.equal((await send(first.app, agent.id, { text: `first ${index}` })).statusCode, 200);
    }
    for (let index = 0; index < 4; index += 1) {
      assert.equal(
        (await send(second, agent.id, { text: `second ${index}`, stream: index % 2 === 0 })).statusCode,
        200,
      );
    }
    fake.enqueue({ status: 500 }, { status: 500 }, { status: 500 });
    assert.equal((await send(second, agent.id, { text: 'fails' })).statusCode, 503);

    // Both flush into the one row; the first flushes again after more traffic, adding to what is there.
    await first.deps.services.agentMetrics.flush();
    await secondDeps.services.agentMetrics.flush();
    assert.equal((await send(first.app, agent.id, { text: 'after the flush' })).statusCode, 200);
    await first.deps.services.agentMetrics.flush();

    const read = async (app: App) => {
      const response = await app.inject({
        method: 'GET',
        url: `/v1/agents/${agent.id}/metrics?from=2026-11-22T14:00:00Z&to=2026-11-22T14:01:00Z&interval=minute`,
        headers: first.owner.headers,
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };
    const body = await read(second);
    assert.equal(body.buckets.length, 1);
    const [bucket] = body.buckets;
    assert.equal(bucket.messages, 9);
    assert.equal(bucket.streamedMessages, 2);
    assert.equal(bucket.failedMessages, 1);
    assert.deepEqual(bucket.failuresByType, { provider_error: 1 });
    assert.equal(bucket.inputTokens, 8 * 7);
    assert.equal(bucket.outputTokens, 8 * 3);
    assert.ok(bucket.latencyMs.p50 !== null && bucket.timeToFirstTokenMs.p50 !== null);
    assert.deepEqual(await read(first.app), body, 'both instances read the same rows');

    // What the second instance gathers after its last flush is written when it shuts down.
    assert.equal((await send(second, agent.id, { text: 'just before shutdown' })).statusCode, 200);
    await second.close();
    await secondDeps.services.agentMetrics.close();
    assert.equal((await read(first.app)).buckets[0].messages, 10);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * What a message costs: priced with the table (here an operator's AGENTD_MODEL_PRICES for a model of an
 * openai-compatible server) when the call finishes, and shown in the reply's usage, its run and the metrics.
 */
const prices = {
  'openai-compatible': { 'priced-model': { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 10 } },
};

for (const backend of backends) {
  describe(`model costs on ${backend.label}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    let pricedAgent: string;
    let unknownAgent: string;

    before(async () => {
      fake = await startFakeOpenAiServer();
      t = await createTestApp({
        backend: backend.name,
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_DEFAULT_MODEL: 'openai-compatible/priced-model',
          AGENTD_MODEL_PRICES: JSON.stringify(prices),
          AGENTD_METRICS_FLUSH_MS: '600000',
        },
      });
      const memory = { summary: false, facts: false, recall: false };
      pricedAgent = (await t.newAgent({ name: 'Priced', memory })).id;
      unknownAgent = (
        await t.newAgent({
          name: 'Unpriced',
          memory,
          model: { provider: 'openai-compatible', name: 'unknown-model' },
        })
      ).id;
    });

    after(async () => {
      await t?.close();
      await fake?.close();
    });

    const send = (agentId: string) =>
      t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload: { text: 'hello', userId: 'u1' } });

    it('a reply is priced at the configured rate in its usage, its run and the metrics', async () => {
      // 1000 input tokens at $2 and 200 output tokens at $10 per million: $0.004.
      fake.enqueue({ reply: 'Hello', usage: { inputTokens: 1000, outputTokens: 200 } });
      const response = await send(pricedAgent);
      assert.equal(response.statusCode, 200, response.body);
      const reply = response.json();
      assert.equal(reply.usage.costUsd, 0.004);
      assert.equal(reply.usage.priced, true);

      const run = (await t.inject({ method: 'GET', url: `/v1/agents/${pricedAgent}/runs/${reply.runId}` })).json();
      assert.equal(run.reply.usage.costUsd, 0.004);

      await t.deps.services.agentMetrics.flush();
      const metrics = (await t.inject({ method: 'GET', url: `/v1/agents/${pricedAgent}/metrics?interval=day` })).json();
      assert.equal(metrics.totals.costUsd, 0.004);
      assert.equal(metrics.totals.unpricedMessages, 0);

      const usage = (await t.inject({ method: 'GET', url: '/v1/metrics/usage' })).json();
      assert.equal(usage.data.find((entry: any) => entry.agentId === pricedAgent).costUsd, 0.004);
      const daily = (await t.inject({ method: 'GET', url: '/v1/metrics/usage/daily' })).json();
      const day = daily.data.find((entry: any) => entry.model === 'openai-compatible/priced-model');
      assert.equal(day.costUsd, 0.004);
    });

    it('a model without a price costs nothing and says it has no price, in the reply and the metrics', async () => {
      fake.enqueue({ reply: 'Hi', usage: { inputTokens: 500, outputTokens: 50 } });
      const response = await send(unknownAgent);
      assert.equal(response.statusCode, 200, response.body);
      const reply = response.json();
      assert.equal(reply.usage.costUsd, 0);
      assert.equal(reply.usage.priced, false);

      await t.deps.services.agentMetrics.flush();
      const metrics = (
        await t.inject({ method: 'GET', url: `/v1/agents/${unknownAgent}/metrics?interval=day` })
      ).json();
      assert.equal(metrics.totals.costUsd, 0);
      assert.equal(metrics.totals.unpricedMessages, 1);
      const usage = (await t.inject({ method: 'GET', url: '/v1/metrics/usage' })).json();
      assert.equal(usage.totals.unpricedMessages, 1);
      assert.equal(usage.totals.costUsd, 0.004);
    });
  });
}

import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { readEvents } from '../helpers/sse-client.js';
import { backends, createTestApp, ManualClock, type TestApp } from '../helpers/test-app.js';

/** The status rules of contract §7 and the provider policy of §6, end to end against the fake provider. */
for (const backend of backends) {
  describe(`agent lifecycle and provider failures on ${backend.name}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    let clock: ManualClock;
    before(async () => {
      fake = await startFakeOpenAiServer();
      clock = new ManualClock(Date.now());
      t = await createTestApp({
        backend: backend.name,
        clock,
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
          AGENTD_PROVIDER_TIMEOUT_MS: '200',
          AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
          AGENTD_CIRCUIT_FAILURE_THRESHOLD: '5',
          AGENTD_CIRCUIT_OPEN_MS: '30000',
        },
      });
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });
    beforeEach(() => fake.reset());

    const newAgent = (fields: Record<string, unknown> = {}) => t.newAgent(fields);
    const send = (agentId: string, payload: Record<string, unknown> = { text: 'hi', userId: 'u1' }) =>
      t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload });
    const getAgent = async (agentId: string) =>
      (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}` })).json();

    it('retries a failing provider at most twice before answering, and succeeds when it recovers', async () => {
      const agent = await newAgent();
      fake.enqueue({ status: 500 }, { status: 502 });
      const response = await send(agent.id);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(fake.requests.length, 3);
    });

    it('answers a transient failure with 503 provider_unavailable and Retry-After, and keeps the agent active', async () => {
      const agent = await newAgent();
      fake.enqueue({ status: 503 }, { status: 503 }, { status: 503 });
      const response = await send(agent.id);
      assert.equal(response.statusCode, 503);
      assert.equal(response.json().code, 'provider_unavailable');
      assert.ok(Number(response.headers['retry-after']) >= 1);
      assert.equal(fake.requests.length, 3, 'one call and two retries');
      const after = await getAgent(agent.id);
      assert.equal(after.status, 'active');
      assert.equal(after.statusReason, null);
      assert.deepEqual(
        (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages` })).json().data,
        [],
        'a failed exchange is not stored',
      );
      assert.equal((await send(agent.id)).statusCode, 200, 'answers again once the provider does');
    });

    it('does not retry a provider rate limit forever: 429 three times is 503 with the agent still active', async () => {
      const agent = await newAgent();
      fake.enqueue({ status: 429 }, { status: 429 }, { status: 429 });
      const response = await send(agent.id);
      assert.equal(response.statusCode, 503);
      assert.equal((await getAgent(agent.id)).status, 'active');
    });

    it('times out a provider that sends nothing, aborting each attempt', async () => {
      const agent = await newAgent();
      fake.enqueue({ hang: true }, { hang: true }, { hang: true });
      const response = await send(agent.id);
      assert.equal(response.statusCode, 503);
      assert.equal(response.json().code, 'provider_unavailable');
      assert.match(response.json().detail, /within 200 ms/);
      assert.equal(fake.requests.length, 3);
      for (let index = 0; index < 3; index += 1) await fake.waitForAbort(index);
      assert.equal((await getAgent(agent.id)).status, 'active');
    });

    it('puts the agent in error when the provider rejects its credentials, and PATCH to active recovers it', async () => {
      const agent = await newAgent();
      fake.enqueue({ status: 401, errorMessage: 'Incorrect API key provided' });
      const response = await send(agent.id);
      assert.equal(response.statusCode, 503);
      assert.equal(response.json().code, 'agent_unavailable');
      assert.match(response.json().detail, /credentials/);
      assert.equal(fake.requests.length, 1, 'a rejected key is not retried');
      const faulted = await getAgent(agent.id);
      assert.equal(faulted.status, 'error');
      assert.match(faulted.statusReason, /rejected the credentials \(HTTP 401\)/);
      const listed = (await t.inject({ method: 'GET', url: '/v1/agents?status=error' })).json();
      assert.ok(listed.data.some((item: { id: string }) => item.id === agent.id));

      const refused = await send(agent.id);
      assert.equal(refused.statusCode, 503);
      assert.equal(refused.json().code, 'agent_unavailable');
      assert.match(refused.json().detail, /in error: .*credentials/);
      assert.equal(fake.requests.length, 1, 'an agent in error does not call its provider');

      const patched = (
        await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'active' } })
      ).json();
      assert.equal(patched.status, 'active');
      assert.equal(patched.statusReason, null);
      assert.equal((await send(agent.id)).statusCode, 200);
    });

    it('puts the agent in error when the provider does not know its model, and a new model recovers it', async () => {
      const agent = await newAgent({ model: { provider: 'openai-compatible', name: 'no-such-model' } });
      fake.enqueue({ status: 404, errorMessage: 'model not found' });
      assert.equal((await send(agent.id)).statusCode, 503);
      const faulted = await getAgent(agent.id);
      assert.equal(faulted.status, 'error');
      assert.match(faulted.statusReason, /does not know the model "no-such-model"/);
      const patched = (
        await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { model: { name: 'test-model' } } })
      ).json();
      assert.equal(patched.status, 'active');
      assert.equal((await send(agent.id)).statusCode, 200);
    });

    it('puts the agent in error when its provider is no longer enabled', async () => {
      const agent = await newAgent();
      // As left by an earlier configuration of the server that enabled anthropic.
      const row = await t.deps.database.db
        .selectFrom('agents')
        .select('profile')
        .where('id', '=', agent.id)
        .executeTakeFirstOrThrow();
      const profile = JSON.parse(row.profile);
      profile.model = { provider: 'anthropic', name: 'claude-haiku-4-5' };
      await t.deps.database.db
        .updateTable('agents')
        .set({ profile: JSON.stringify(profile) })
        .where('id', '=', agent.id)
        .execute();
      const response = await send(agent.id);
      assert.equal(response.statusCode, 503);
      assert.equal(response.json().code, 'agent_unavailable');
      const faulted = await getAgent(agent.id);
      assert.equal(faulted.status, 'error');
      assert.match(faulted.statusReason, /"anthropic", which is not enabled/);
      assert.equal(fake.requests.length, 0);
      const patched = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { model: { provider: 'openai-compatible', name: 'test-model' } },
      });
      assert.equal(patched.json().status, 'active');
    });

    it('reports a failure after the stream began as message.failed, keeping what was said', async () => {
      const agent = await newAgent();
      fake.enqueue({ reply: 'one two three four', tokenDelayMs: 30, failAfterChunks: 2 });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      const response = await fetch(`http://127.0.0.1:${port}/v1/agents/${agent.id}/messages`, {
        method: 'POST',
        headers: { ...t.owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'count', userId: 'm', stream: true }),
      });
      const events = await readEvents(response.body!).rest();
      assert.deepEqual(
        events.map((event) => event.event),
        ['message.started', 'message.delta', 'message.delta', 'message.failed'],
      );
      const failed = events.at(-1)!.data;
      assert.equal(failed.id, events[0]!.data.id);
      assert.equal(failed.error.code, 'provider_unavailable');
      assert.equal(failed.error.status, 503);
      assert.equal(fake.requests.length, 1, 'no retry after the first byte');
      const turns = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=m` })).json().data;
      assert.equal(turns[0].finishReason, 'error');
      assert.equal(turns[0].text, 'one two ');
      assert.equal((await getAgent(agent.id)).status, 'active');
    });

    it('opens the circuit after 5 failed replies, answers 503 at once while open, then lets one trial through', async () => {
      const agent = await newAgent();
      // A success first: the count is of consecutive failures, and earlier tests failed some.
      assert.equal((await send(agent.id)).statusCode, 200);
      fake.reset();
      fake.setDefault({ status: 500 });
      for (let reply = 0; reply < 5; reply += 1) assert.equal((await send(agent.id)).statusCode, 503);
      assert.equal(fake.requests.length, 15);
      const open = await send(agent.id);
      assert.equal(open.statusCode, 503);
      assert.equal(open.json().code, 'provider_unavailable');
      assert.equal(open.headers['retry-after'], '30');
      assert.equal(fake.requests.length, 15, 'an open circuit does not call the provider');
      const otherAgent = await newAgent();
      assert.equal((await send(otherAgent.id)).statusCode, 503, "the circuit is the provider's, not the agent's");
      assert.equal((await getAgent(agent.id)).status, 'active');

      clock.advance(30_000);
      fake.setDefault({ status: 500 });
      assert.equal((await send(agent.id)).statusCode, 503, 'the trial fails');
      assert.equal(fake.requests.length, 18);
      assert.equal((await send(agent.id)).statusCode, 503);
      assert.equal(fake.requests.length, 18, 'open again after a failed trial');

      clock.advance(30_000);
      fake.setDefault({});
      assert.equal((await send(agent.id)).statusCode, 200, 'the trial succeeds');
      assert.equal((await send(agent.id)).statusCode, 200, 'closed again');
      assert.equal(fake.requests.length, 20);
    });
  });
}

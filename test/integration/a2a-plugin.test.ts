import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { turnsOf, type FakeProviderServer } from '../helpers/fake-provider-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Two agentd agents, one asking the other through the `a2a` plugin: the
 * first agent's model calls the tool, the second agent answers over A2A, and
 * its answer comes back as the tool result into the first agent's reply.
 */
describe('the a2a plugin', () => {
  let fake: FakeProviderServer;
  let t: TestApp;
  let origin: string;

  before(async () => {
    fake = await startFakeOpenAiServer();
    // The remote agent is on loopback here; outside tests the SSRF-safe client refuses private addresses.
    t = await createTestApp({
      env: { AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl, AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });

  it('asks a remote A2A agent as a tool and answers with what it said', async () => {
    const model = { provider: 'openai-compatible', name: 'test-model' };
    const expert = await t.newAgent({ name: 'Math Expert', bio: 'Knows arithmetic.', model });
    const asker = await t.newAgent({
      name: 'Front Desk',
      model,
      plugins: [
        {
          name: 'a2a',
          config: { cardUrl: `${origin}/v1/a2a/${expert.id}/.well-known/agent-card.json` },
          secrets: { authorization: `Bearer ${t.owner.key}` },
        },
      ],
    });
    fake.setDefault((request) => {
      const offered = request.offeredTools.map((tool) => tool.name);
      if (offered.includes('a2a_math_expert')) {
        const result = request.toolResults[0];
        return result === undefined
          ? { toolCalls: [{ name: 'a2a_math_expert', input: { text: 'What is six times seven?' } }] }
          : { reply: `The expert says: ${JSON.parse(result.content).answer}` };
      }
      return { reply: 'Six times seven is 42.' };
    });

    const response = await t.inject({
      method: 'POST',
      url: `/v1/agents/${asker.id}/messages`,
      payload: { text: 'Ask the expert what six times seven is.', userId: 'u1' },
    });
    assert.equal(response.statusCode, 200, response.body);
    const reply = response.json();
    assert.equal(reply.text, 'The expert says: Six times seven is 42.');
    assert.equal(reply.toolCalls.length, 1);
    assert.equal(reply.toolCalls[0].name, 'a2a_math_expert');
    assert.equal(reply.toolCalls[0].output.answer, 'Six times seven is 42.');
    assert.match(reply.toolCalls[0].output.taskId, /^run_/);

    const expertRequest = fake.requests.find((request) => request.offeredTools.length === 0);
    assert.ok(expertRequest, 'the expert’s model was asked');
    assert.equal(turnsOf(expertRequest).at(-1), 'user: What is six times seven?');
    const runs = (await t.inject({ method: 'GET', url: `/v1/agents/${expert.id}/runs?trigger=a2a` })).json();
    assert.equal(runs.data.length, 1);
    assert.equal(runs.data[0].status, 'completed');
    assert.ok(!JSON.stringify(reply).includes(t.owner.key), 'the remote’s credentials never show');
  });

  it('tells the model when the remote agent cannot be reached', async () => {
    const asker = await t.newAgent({
      name: 'Lonely',
      model: { provider: 'builtin', name: 'echo' },
      plugins: [{ name: 'a2a', config: { cardUrl: `${origin}/v1/a2a/agt_01JAAAAAAAAAAAAAAAAAAAAAAA/card.json` } }],
    });
    const response = await t.inject({
      method: 'POST',
      url: `/v1/agents/${asker.id}/messages`,
      payload: { text: 'hello' },
    });
    assert.equal(response.statusCode, 200, 'a remote that fails does not fail the reply');
  });
});

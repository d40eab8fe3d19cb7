import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeOpenAiImagesServer, type FakeOpenAiImagesServer } from '../helpers/fake-openai-images-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The images plugin at an agent's own image server (`baseUrl`): the entry is
 * accepted, generate_image reaches that server through the SSRF-safe client
 * with the entry's key, and the key goes nowhere else: not to the model (the
 * fake OpenAI-compatible chat server), not to the log, not to another origin
 * a redirect names; the operator's key never goes to an agent's server.
 */

const agentKey = 'sk-agent-images-7f3a91c0d2e4b5';
const operatorKey = 'sk-operator-images-19d0c4e8a7b6';

describe('the images plugin at an agent’s own baseUrl', () => {
  let model: FakeProviderServer;
  let images: FakeOpenAiImagesServer;
  let elsewhere: FakeOpenAiImagesServer;
  let t: TestApp;

  before(async () => {
    model = await startFakeOpenAiServer();
    images = await startFakeOpenAiImagesServer();
    // 127.0.0.2 is loopback too (Linux routes 127.0.0.0/8 there): another origin, as far as URLs go.
    elsewhere = await startFakeOpenAiImagesServer('127.0.0.2');
    t = await createTestApp({
      env: {
        AGENTD_OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
        AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
        AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
        // The operator's OpenAI key: what an agent's baseUrl must never receive.
        OPENAI_API_KEY: operatorKey,
        // Loopback servers stand in for the outside world only where the operator allows private addresses.
        AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
      },
      captureLogs: true,
    });
  });
  after(async () => {
    await t?.close();
    await model?.close();
    await images?.close();
    await elsewhere?.close();
  });
  beforeEach(() => {
    model.reset();
    images.reset();
    elsewhere.reset();
  });

  const createImagesAgent = (entry: Record<string, unknown>) =>
    t.inject({
      method: 'POST',
      url: '/v1/agents',
      payload: { name: 'Painter', plugins: [{ name: 'images', ...entry }] },
    });

  /** Has the model call generate_image once, then answer; the reply. */
  async function generateThroughModel(agentId: string) {
    model.enqueue(
      { toolCalls: [{ name: 'generate_image', input: { prompt: 'a red square' } }] },
      { reply: 'Here it is.' },
    );
    const response = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agentId}/messages`,
      payload: { text: 'Draw a red square', userId: 'u1' },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response;
  }

  async function assertKeyNeverShown(agentId: string, replyBody: string) {
    assert.ok(!replyBody.includes(agentKey), 'the reply (and its tool result) never carries the key');
    const prompts = JSON.stringify(model.requests.map((request) => request.body));
    assert.ok(!prompts.includes(agentKey), 'no request to the model carries the key');
    assert.ok(!prompts.includes(operatorKey), 'nor the operator’s key');
    assert.ok(!t.logs!.text().includes(agentKey), 'the log never carries the key');
    const history = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/messages?userId=u1` });
    assert.ok(!history.body.includes(agentKey), 'the stored turns never carry the key');
    const shown = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}` });
    assert.ok(!shown.body.includes(agentKey), 'the agent is shown with its key masked');
  }

  it('the images plugin accepts a baseUrl: the agent is created and generate_image calls that server with the entry’s key', async () => {
    const created = await createImagesAgent({
      config: { baseUrl: `${images.origin}/v1`, model: 'my-image-model' },
      secrets: { apiKey: agentKey },
    });
    assert.equal(created.statusCode, 201, created.body);
    const agent = created.json();

    const response = await generateThroughModel(agent.id);
    const reply = response.json();
    assert.equal(images.requests.length, 1, 'the call reached the agent’s image server');
    const [request] = images.requests;
    assert.equal(request!.path, '/v1/images/generations');
    assert.equal(request!.authorization, `Bearer ${agentKey}`);
    assert.equal(request!.body.model, 'my-image-model');
    assert.equal(request!.body.prompt, 'a red square');
    assert.equal(reply.attachments.length, 1, response.body);
    assert.equal(reply.toolCalls[0].output.images[0].fileId, reply.attachments[0].fileId);

    const [, resultRequest] = model.requests;
    assert.equal(resultRequest!.toolResults.length, 1, 'the model got the tool’s result');
    assert.match(resultRequest!.toolResults[0]!.content, /fileId/);
    await assertKeyNeverShown(agent.id, response.body);
  });

  it('an agent’s baseUrl without a key of its own gets no key: the operator’s OpenAI key stays with OpenAI', async () => {
    const created = await createImagesAgent({ config: { baseUrl: `${images.origin}/v1` } });
    assert.equal(created.statusCode, 201, created.body);
    await generateThroughModel(created.json().id);
    assert.equal(images.requests.length, 1);
    assert.equal(images.requests[0]!.authorization, undefined);
  });

  it('the entry’s key does not follow a redirect from the image server to another origin', async () => {
    const created = await createImagesAgent({
      config: { baseUrl: `${images.origin}/v1` },
      secrets: { apiKey: agentKey },
    });
    assert.equal(created.statusCode, 201, created.body);
    images.answerWith({ redirectTo: `${elsewhere.origin}/v1/images/generations` });

    const response = await generateThroughModel(created.json().id);
    assert.equal(images.requests[0]!.authorization, `Bearer ${agentKey}`, 'the baseUrl’s origin got the key');
    assert.equal(elsewhere.requests.length, 1, 'the redirect was followed');
    assert.equal(elsewhere.requests[0]!.authorization, undefined, 'the other origin got no key');
    assert.equal(response.json().attachments.length, 1, response.body);
    await assertKeyNeverShown(created.json().id, response.body);
  });

  it('refuses a baseUrl that is no http(s) address, at its pointer', async () => {
    const refused = [
      'ftp://images.example.com/v1',
      'images.example.com/v1',
      'http://',
      'http:// spaced.example',
      // http(s) by its first letters, but no URL: it would fail every call as unreachable.
      'http://[not-an-address]/v1',
      'https://images.example.com:99999/v1',
    ];
    for (const baseUrl of refused) {
      const response = await createImagesAgent({ config: { baseUrl } });
      assert.equal(response.statusCode, 400, `${baseUrl}: ${response.body}`);
      assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.deepEqual(
        response.json().errors.map((error: { path: string }) => error.path),
        ['/body/plugins/0/config/baseUrl'],
        baseUrl,
      );
    }
  });
});

describe('the images plugin under the default outbound policy (private addresses refused)', () => {
  let images: FakeOpenAiImagesServer;
  let t: TestApp;

  before(async () => {
    images = await startFakeOpenAiImagesServer();
    t = await createTestApp({ env: { AGENTD_DEFAULT_MODEL: 'builtin/echo' } });
  });
  after(async () => {
    await t?.close();
    await images?.close();
  });

  it('a baseUrl on loopback is refused when the tool runs: the call never reaches the server and the key stays', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const baseUrl = `http://${host}:${new URL(images.origin).port}/v1`;
      const agent = await t.newAgent({
        plugins: [{ name: 'images', config: { baseUrl }, secrets: { apiKey: agentKey } }],
      });
      const response = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: '/tool generate_image {"prompt":"a red square"}', userId: 'u1' },
      });
      assert.equal(response.statusCode, 200, response.body);
      const reply = response.json();
      assert.match(reply.toolCalls[0].error, /refused/i, `${host}: ${response.body}`);
      assert.deepEqual(reply.attachments, []);
      assert.ok(!response.body.includes(agentKey));
    }
    assert.equal(images.requests.length, 0, 'nothing reached the loopback image server');
  });
});

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { tinyPng } from '../helpers/images.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Images sent with a message reach vision models as image parts, in each
 * provider's wire format: OpenAI Chat Completions (`image_url` with a data
 * URL) and the Anthropic Messages API (a base64 `image` block), as the fake
 * providers record them. Outbound calls may reach loopback here, so an image
 * given by URL is fetched from a local server.
 */
describe('images sent to vision models', () => {
  let openai: FakeProviderServer;
  let anthropic: FakeProviderServer;
  let pictures: LoopbackHttpServer;
  let t: TestApp;
  const png = tinyPng(5, 4);
  before(async () => {
    openai = await startFakeOpenAiServer();
    anthropic = await startFakeAnthropicServer();
    pictures = await startLoopbackHttpServer((request, response) => {
      if (request.path === '/cat.png') response.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else if (request.path === '/mislabelled.png')
        response.writeHead(200, { 'content-type': 'image/png' }).end('<html>no</html>');
      else response.writeHead(404).end();
    });
    t = await createTestApp({
      env: {
        OPENAI_API_KEY: 'sk-test-vision',
        OPENAI_BASE_URL: `${openai.origin}/v1`,
        ANTHROPIC_API_KEY: 'sk-ant-test-vision',
        ANTHROPIC_BASE_URL: anthropic.origin,
        AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
      },
    });
  });
  after(async () => {
    await t?.close();
    await openai?.close();
    await anthropic?.close();
    await pictures?.close();
  });
  beforeEach(() => {
    openai.reset();
    anthropic.reset();
  });

  const send = (agentId: string, payload: Record<string, unknown>) =>
    t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload });

  it('sends OpenAI an image_url part with the image as a data URL, after the text', async () => {
    const agent = await t.newAgent({ model: { provider: 'openai', name: 'gpt-4o-mini' } });
    openai.enqueue({ reply: 'A small red picture.' });
    const response = await send(agent.id, {
      text: 'What is in this picture?',
      attachments: [{ type: 'image', data: png.toString('base64') }],
    });
    assert.equal(response.statusCode, 200, response.body);
    const last = openai.requests[0]!.body.messages.at(-1)!;
    assert.equal(last.role, 'user');
    assert.ok(Array.isArray(last.content), JSON.stringify(last));
    const content = last.content as Array<any>;
    assert.deepEqual(content[0], { type: 'text', text: 'What is in this picture?' });
    assert.equal(content[1].type, 'image_url');
    assert.equal(content[1].image_url.url, `data:image/png;base64,${png.toString('base64')}`);
  });

  it('sends Anthropic a base64 image block with its media type', async () => {
    const agent = await t.newAgent({ model: { provider: 'anthropic', name: 'claude-haiku-4-5' } });
    anthropic.enqueue({ reply: 'A small red picture.' });
    const response = await send(agent.id, {
      text: 'Describe it.',
      userId: 'u1',
      attachments: [{ type: 'image', url: `${pictures.origin}/cat.png` }],
    });
    assert.equal(response.statusCode, 200, response.body);
    const last = anthropic.requests[0]!.body.messages.at(-1)!;
    const content = last.content as Array<any>;
    assert.equal(content[0].type, 'text');
    assert.equal(content[0].text, 'Describe it.');
    assert.deepEqual(content[1], {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') },
    });
    const turns = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=u1` })).json().data;
    const served = await t.inject({ method: 'GET', url: turns[1].attachments[0].url });
    assert.deepEqual(served.rawPayload, png, 'the fetched image is stored with the turn');
  });

  it('judges a fetched image by its bytes, not by the Content-Type its server sends', async () => {
    const agent = await t.newAgent({ model: { provider: 'openai', name: 'gpt-4o-mini' } });
    const response = await send(agent.id, {
      text: 'Look.',
      attachments: [{ type: 'image', url: `${pictures.origin}/mislabelled.png` }],
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().errors[0].path, '/body/attachments/0/url');
    assert.equal(openai.requests.length, 0, 'the model was not called');
  });

  it('sends nothing but text when a message has no images', async () => {
    const agent = await t.newAgent({ model: { provider: 'openai', name: 'gpt-4o-mini' } });
    openai.enqueue({ reply: 'Hi.' });
    await send(agent.id, { text: 'Hello' });
    const last = openai.requests[0]!.body.messages.at(-1)!;
    assert.equal(last.content, 'Hello');
  });
});

import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { startFakeOpenAiImagesServer, type FakeOpenAiImagesServer } from '../helpers/fake-openai-images-server.js';
import { tinyPng } from '../helpers/images.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Pictures through the OpenAI-compatible door, with the real `openai`
 * client against a listening agentd: images the reply produced come back as
 * `image_url` content parts with absolute URLs, and `image_url` parts of
 * the user's message reach the agent as attachments.
 */
describe('images through the OpenAI-compatible door', () => {
  let images: FakeOpenAiImagesServer;
  let t: TestApp;
  let openai: OpenAI;
  let origin: string;

  before(async () => {
    images = await startFakeOpenAiImagesServer();
    t = await createTestApp({
      env: {
        OPENAI_API_KEY: 'sk-test-door-images',
        OPENAI_BASE_URL: `${images.origin}/v1`,
        AGENTD_DEFAULT_MODEL: 'builtin/echo',
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    openai = new OpenAI({ apiKey: t.owner.key, baseURL: `${origin}/v1`, maxRetries: 0 });
  });
  after(async () => {
    await t?.close();
    await images?.close();
  });

  it('returns a generated image as an image_url content part the key holder can fetch', async () => {
    const agent = await t.newAgent({ plugins: [{ name: 'images' }] });
    const completion = await openai.chat.completions.create({
      model: agent.id,
      messages: [{ role: 'user', content: '/tool generate_image {"prompt":"a lighthouse"}' }],
    });
    const content = completion.choices[0]!.message.content as unknown as Array<any>;
    assert.ok(Array.isArray(content), JSON.stringify(completion));
    assert.equal(content[0].type, 'text');
    const image = content.find((part) => part.type === 'image_url');
    assert.match(image.image_url.url, new RegExp(`^${origin}/v1/files/file_`));
    const fetched = await fetch(image.image_url.url, { headers: { authorization: `Bearer ${t.owner.key}` } });
    assert.equal(fetched.status, 200);
    assert.equal(fetched.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await fetched.arrayBuffer()), tinyPng(4, 3));
    const anonymous = await fetch(image.image_url.url);
    assert.equal(anonymous.status, 401, 'files need the key');
  });

  it('streams the images as one delta of content parts before the finish', async () => {
    const agent = await t.newAgent({ plugins: [{ name: 'images' }] });
    const stream = await openai.chat.completions.create({
      model: agent.id,
      messages: [{ role: 'user', content: '/tool generate_image {"prompt":"a boat"}' }],
      stream: true,
    });
    const deltas: unknown[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content !== undefined) deltas.push(choice.delta.content);
      if (choice?.finish_reason) finish = choice.finish_reason;
    }
    const parts = deltas.filter((delta): delta is Array<any> => Array.isArray(delta));
    assert.equal(parts.length, 1, JSON.stringify(deltas));
    assert.equal(parts[0]![0].type, 'image_url');
    assert.equal(finish, 'stop');
  });

  it('sends image_url parts of the user message to the agent as attachments', async () => {
    const agent = await t.newAgent();
    const png = tinyPng(3, 2);
    const completion = await openai.chat.completions.create({
      model: agent.id,
      user: 'door-user',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
          ],
        },
      ],
    });
    assert.match(String(completion.choices[0]!.message.content), /You sent a PNG image of 3×2 pixels/);
    const turns = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=door-user` })).json()
      .data;
    assert.equal(turns[1].attachments[0].sizeBytes, png.length);
  });
});

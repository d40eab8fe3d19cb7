import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeOpenAiImagesServer, type FakeOpenAiImagesServer } from '../helpers/fake-openai-images-server.js';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram-server.js';
import { tinyPng } from '../helpers/images.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * Pictures on platforms, end to end with a running connector against the
 * platform's fake: a photo a user sends reaches the agent as an attachment
 * (the builtin model says its type and size), and an image the agent's tool
 * makes is sent back as a photo.
 */
const telegramToken = '515151:telegram-images-secret-z9y8';

describe('pictures through Telegram', () => {
  let telegram: FakeTelegram;
  let images: FakeOpenAiImagesServer;
  let t: TestApp;
  before(async () => {
    telegram = await startFakeTelegram();
    telegram.addBot(telegramToken);
    images = await startFakeOpenAiImagesServer();
    t = await createTestApp({
      platforms: true,
      env: {
        AGENTD_TELEGRAM_API_URL: telegram.apiRoot,
        AGENTD_PLATFORM_CHANGE_POLL_MS: '100',
        OPENAI_API_KEY: 'sk-test-platform-images',
        OPENAI_BASE_URL: `${images.origin}/v1`,
        AGENTD_DEFAULT_MODEL: 'builtin/echo',
      },
    });
  });
  after(async () => {
    await t?.close();
    await telegram?.close();
    await images?.close();
  });

  it('takes a photo in as an attachment and sends a generated image out with sendPhoto', async () => {
    const agent = await t.newAgent({
      plugins: [{ name: 'images' }],
      platforms: [{ type: 'telegram', secrets: { botToken: telegramToken } }],
    });
    await eventually(async () => (telegram.isPolling(telegramToken) ? true : null), 'a long poll');

    const photo = tinyPng(6, 5);
    telegram.injectPhoto(telegramToken, { chatId: 6001, fromId: 6001, photo, caption: 'Look at this' });
    const answer = await eventually(async () => telegram.sentTo(telegramToken, 6001)[0] ?? null, 'the answer');
    assert.match(answer, /You said: “Look at this”/);
    assert.match(answer, /You sent a PNG image of 6×5 pixels/);
    const getFile = telegram.callsOf('getFile', telegramToken);
    assert.equal(getFile[0]?.body.file_id, 'photo-501', 'the largest size of the photo was fetched');
    const history = (
      await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=telegram:6001` })
    ).json().data;
    assert.equal(history[1].attachments[0].sizeBytes, photo.length, 'stored with the turn');

    telegram.injectMessage(telegramToken, {
      chatId: 6001,
      fromId: 6001,
      text: '/tool generate_image {"prompt":"a harbour at dawn"}',
    });
    const sent = await eventually(async () => telegram.photosSentTo(telegramToken, 6001)[0] ?? null, 'a photo');
    assert.deepEqual(sent, tinyPng(4, 3), 'the generated image, uploaded');
    assert.equal(images.requests[0]?.body.prompt, 'a harbour at dawn');
  });
});

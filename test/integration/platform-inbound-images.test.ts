import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { refusedImageReplyText } from '../../src/services/platforms/platform-messages.js';
import { fakeDiscordBot, startFakeDiscord, type FakeDiscord } from '../helpers/fake-discord.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { slackEventEnvelope, slackSignatureHeaders, startFakeSlack, type FakeSlack } from '../helpers/fake-slack.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';
import { tinyPng } from '../helpers/images.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * Photos users send on Slack (a shared file, fetched with the bot token) and
 * Discord (a message attachment) reach the model as image parts, through a
 * running app with the platforms' fakes and the fake OpenAI-compatible
 * provider, which records what it was sent. A file that is not an image, or
 * is too large, is answered with a readable refusal and reaches no model.
 */
const slackToken = 'xoxb-inbound-images-secret-41f2';
const signingSecret = 'slack-signing-inbound-images-9d1e';
const discordToken = 'discord-inbound-images-secret-77a3';
const alice = { id: '930000000000000001', username: 'alice' };
/** Within the core's image cap (AGENTD_MAX_IMAGE_BYTES defaults to a few MiB) as the platform reports it. */
const png = tinyPng(7, 3);

let slack: FakeSlack;
let discord: FakeDiscord;
let openai: FakeProviderServer;
let elsewhere: LoopbackHttpServer;
let t: TestApp;
before(async () => {
  slack = await startFakeSlack({ botToken: slackToken });
  discord = await startFakeDiscord({ botToken: discordToken });
  openai = await startFakeOpenAiServer();
  // Another host than Slack's: a file URL there must never get the bot token.
  elsewhere = await startLoopbackHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' }).end(png);
  }, '127.0.0.2');
  t = await createTestApp({
    platforms: true,
    env: {
      AGENTD_SLACK_API_URL: slack.apiUrl,
      AGENTD_DISCORD_API_URL: discord.apiUrl,
      AGENTD_PLATFORM_CHANGE_POLL_MS: '100',
      OPENAI_API_KEY: 'sk-test-inbound-images',
      OPENAI_BASE_URL: `${openai.origin}/v1`,
      // The fakes' files are on loopback, which the SSRF-safe client refuses by default.
      AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
    },
  });
});
after(async () => {
  await t?.close();
  await slack?.close();
  await discord?.close();
  await openai?.close();
  await elsewhere?.close();
});
beforeEach(() => openai.reset());

/** The image parts of the last user message of a request the provider received. */
function imageUrlsOf(index: number): string[] {
  const last = openai.requests[index]!.body.messages.at(-1)!;
  const content = Array.isArray(last.content) ? (last.content as Array<any>) : [];
  return content.filter((part) => part.type === 'image_url').map((part) => part.image_url.url as string);
}

describe('photos from Slack', () => {
  let agentId: string;
  let events = 0;
  before(async () => {
    const agent = await t.newAgent({
      model: { provider: 'openai', name: 'gpt-4o-mini' },
      platforms: [{ type: 'slack', secrets: { botToken: slackToken, signingSecret } }],
    });
    agentId = agent.id;
  });

  /** A direct message with files, as Slack sends it (`file_share`). */
  async function sendFiles(text: string, files: unknown[]) {
    events += 1;
    const body = JSON.stringify(
      slackEventEnvelope(`EvImages${events}`, {
        type: 'message',
        subtype: 'file_share',
        channel_type: 'im',
        channel: 'D0IMAGES1',
        user: 'U0ALICE',
        text,
        ts: `1712345678.00010${events}`,
        files,
      }),
    );
    const response = await t.inject({
      method: 'POST',
      url: `/v1/platforms/slack/${agentId}/events`,
      headers: slackSignatureHeaders(signingSecret, body),
      payload: body,
    });
    assert.equal(response.statusCode, 200, response.body);
  }
  const postsIn = (channel: string) => slack.posted.filter((posted) => posted.channel === channel);

  it('fetches a shared photo with the bot token and gives it to the model as an image part', async () => {
    openai.enqueue({ reply: 'A small red picture.' });
    const file = slack.shareFile(png, { name: 'cat.png', mimetype: 'image/png' });
    await sendFiles('what is this?', [file]);
    const reply = await eventually(async () => postsIn('D0IMAGES1')[0] ?? null, 'the answer', 30_000);
    assert.equal(reply.text, 'A small red picture.');
    assert.deepEqual(imageUrlsOf(0), [`data:image/png;base64,${png.toString('base64')}`]);
    const download = slack.fileRequests.at(-1)!;
    assert.match(download.path, /^\/files-pri\/.*cat\.png$/);
    assert.equal(download.authorization, `Bearer ${slackToken}`);
  });

  it('answers a file that is not an image, or too large, with a readable refusal and no model call', async () => {
    const before = slack.fileRequests.length;
    await sendFiles('summarise this', [
      slack.shareFile(Buffer.from('%PDF-1.4'), { name: 'a.pdf', mimetype: 'application/pdf' }),
    ]);
    await sendFiles('', [slack.shareFile(png, { name: 'huge.png', mimetype: 'image/png', size: 64 * 1_048_576 })]);
    // Said to be a png, but its bytes are not one: fetched, then refused by the core's check.
    await sendFiles('and this', [slack.shareFile(Buffer.from('<html>'), { name: 'fake.png', mimetype: 'image/png' })]);
    const refusals = await eventually(
      async () => (postsIn('D0IMAGES1').length >= 4 ? postsIn('D0IMAGES1').slice(1) : null),
      'three refusals',
      30_000,
    );
    for (const refusal of refusals) assert.equal(refusal.text, refusedImageReplyText);
    assert.equal(openai.requests.length, 0, 'no model was asked');
    assert.equal(slack.fileRequests.length, before + 1, 'only the file said to be an image within the cap was fetched');
  });

  it('never sends the bot token to a file URL on another host', async () => {
    const file = { ...slack.shareFile(png, { name: 'x.png', mimetype: 'image/png' }) };
    file.url_private = `${elsewhere.origin}/x.png`;
    file.url_private_download = `${elsewhere.origin}/x.png`;
    const posted = postsIn('D0IMAGES1').length;
    await sendFiles('look', [file]);
    const reply = await eventually(async () => postsIn('D0IMAGES1')[posted] ?? null, 'the refusal', 30_000);
    assert.equal(reply.text, refusedImageReplyText);
    assert.equal(elsewhere.received.length, 0, 'nothing was requested from the other host');
  });
});

describe('photos from Discord', () => {
  before(async () => {
    await t.newAgent({
      model: { provider: 'openai', name: 'gpt-4o-mini' },
      platforms: [{ type: 'discord', secrets: { botToken: discordToken } }],
    });
    await eventually(async () => (discord.openSockets() > 0 ? true : null), 'the gateway connection', 30_000);
    // As the connector's own tests: a heartbeat shows the client past its handshake, taking events.
    await eventually(async () => (discord.heartbeats() > 0 ? true : null), 'a heartbeat', 30_000);
  });
  const repliesTo = (id: string) => discord.sent.filter((sent) => sent.replyTo === id);

  it('gives an attached photo to the model as an image part', async () => {
    openai.enqueue({ reply: 'Seven by three.' });
    const id = discord.dispatchMessage({
      author: alice,
      content: `<@${fakeDiscordBot.id}>`,
      mentions: [fakeDiscordBot],
      attachments: [{ name: 'photo.png', contentType: 'image/png', bytes: png }],
    });
    const reply = await eventually(async () => repliesTo(id)[0] ?? null, 'the answer', 60_000);
    assert.equal(reply.content, 'Seven by three.');
    assert.deepEqual(imageUrlsOf(0), [`data:image/png;base64,${png.toString('base64')}`]);
    const last = openai.requests[0]!.body.messages.at(-1)!;
    // A shared channel's turns carry their sender; the photo stands in for text the user did not write.
    assert.match((last.content as Array<any>)[0].text, /^\[discord:\d+\] \(a photo\)$/);
    assert.ok(discord.rest.received.some((request) => request.path.includes('/photo.png')));
  });

  it('answers a file that is not an image, or too large, with a readable refusal and no model call', async () => {
    const notImage = discord.dispatchMessage({
      author: alice,
      content: 'read this',
      direct: true,
      attachments: [{ name: 'notes.txt', contentType: 'text/plain', bytes: Buffer.from('hello') }],
    });
    const tooLarge = discord.dispatchMessage({
      author: alice,
      content: 'and this',
      direct: true,
      attachments: [{ name: 'big.png', contentType: 'image/png', bytes: png, size: 64 * 1_048_576 }],
    });
    for (const id of [notImage, tooLarge]) {
      const reply = await eventually(async () => repliesTo(id)[0] ?? null, 'the refusal', 30_000);
      assert.equal(reply.content, refusedImageReplyText);
    }
    assert.equal(openai.requests.length, 0, 'no model was asked');
    assert.ok(!discord.rest.received.some((request) => /notes\.txt|big\.png/.test(request.path)), 'nothing fetched');
  });
});

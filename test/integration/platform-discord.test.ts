import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { discordPlatform } from '../../src/platforms/discord/index.js';
import type { DiscordSettings } from '../../src/platforms/discord/settings.js';
import {
  PlatformCredentialsRejected,
  type InboundReply,
  type PlatformConnection,
} from '../../src/platforms/platform.js';
import {
  fakeDiscordBot,
  fakeDiscordChannelId,
  fakeDiscordDirectChannelId,
  startFakeDiscord,
  type FakeDiscord,
} from '../helpers/fake-discord.js';
import { createTestPlatformContext, type TestPlatformContext } from '../helpers/platform-test-context.js';
import { tinyPng } from '../helpers/images.js';
import { eventually, waitFor } from '../helpers/wait.js';

/**
 * The Discord connector driven directly (start, stop) with a test context,
 * with discord.js itself pointed at a fake Discord on loopback: its REST calls
 * go to the fake through the client's `rest.api` option and its gateway
 * connection to the URL the fake's GET /gateway/bot returns. So the whole path
 * is real discord.js: the gateway handshake (HELLO, IDENTIFY with the intents,
 * READY, GUILD_CREATE, heartbeats, RESUME after a dropped connection),
 * MESSAGE_CREATE dispatch into Message objects, message.reply and the typing
 * indicator over REST.
 * Not covered: zlib-stream compression (zlib-sync is not installed, so
 * discord.js asks for none, as in production here), sharding (one shard),
 * Discord's REST rate-limit headers and gateway rate limits, and a gateway
 * that accepts TCP but never says HELLO (the connector's 30 s connect bound).
 */

const botToken = 'MTk4NjIyNDgzNDcxOTI1MjQ4.discord-test-token-8b2f';
const wrongToken = 'MTk4NjIyNDgzNDcxOTI1MjQ4.discord-wrong-token-3c1d';
const settings = Value.Default(discordPlatform.settingsSchema, {}) as DiscordSettings;
const alice = { id: '800000000000000001', username: 'alice' };
const otherBot = { id: '800000000000000002', username: 'some-bot', bot: true };

/** An image a reply produced, as the core holds it. */
const pictureFileId = 'file_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const picture = tinyPng(4, 3);

let discord: FakeDiscord;
let test: TestPlatformContext;
let connection: PlatformConnection;
let answer: (content: string) => InboundReply | Promise<InboundReply> = (content) => ({
  text: `echo: ${content}`,
  limited: false,
});

before(async () => {
  discord = await startFakeDiscord({ botToken });
  test = createTestPlatformContext({
    apiBaseUrl: discord.apiUrl,
    answer: (message) => answer(message.content),
    files: { [pictureFileId]: { bytes: picture, mediaType: 'image/png' } },
  });
  connection = await discordPlatform.start(settings, { botToken }, test.context);
});
after(async () => {
  await connection.stop();
  await discord.close();
});

function sentTo(replyTo: string) {
  return discord.sent.filter((message) => message.replyTo === replyTo);
}

describe('discord connector', () => {
  it('declares its schemas and runs under a lease', () => {
    assert.equal(discordPlatform.type, 'discord');
    assert.equal(discordPlatform.runsOnLease(settings, {}), true);
    assert.deepEqual(settings, { answerDirectMessages: true });
    assert.ok(Value.Check(discordPlatform.secretsSchema, { botToken }));
    // Masks of kept secrets and imported characters without values pass; a misspelt name does not.
    assert.ok(Value.Check(discordPlatform.secretsSchema, { botToken: '••••8b2f', applicationId: '••••0002' }));
    assert.ok(!Value.Check(discordPlatform.secretsSchema, { token: botToken }));
    assert.ok(!Value.Check(discordPlatform.settingsSchema, { answerDirectMessages: true, guildIds: ['general'] }));
  });

  it('does not start without a bot token', async () => {
    const context = createTestPlatformContext({ apiBaseUrl: discord.apiUrl });
    await assert.rejects(discordPlatform.start(settings, {}, context.context), (error: unknown) => {
      assert.ok(error instanceof PlatformCredentialsRejected);
      assert.equal(error.message, 'Discord needs secrets.botToken');
      return true;
    });
  });

  it('identifies with the guild message, direct message and message content intents, and heartbeats', async () => {
    const identify = discord.identifies.find((entry) => entry.token === botToken);
    assert.ok(identify);
    const guilds = 1 << 0;
    const guildMessages = 1 << 9;
    const directMessages = 1 << 12;
    const messageContent = 1 << 15;
    assert.equal(identify.intents, guilds | guildMessages | directMessages | messageContent);
    await eventually(async () => (discord.heartbeats() > 0 ? true : null), 'a heartbeat', 10_000);
  });

  it('answers a message that mentions the bot with a reply, showing typing first', async () => {
    const typingBefore = discord.typing.length;
    const id = discord.dispatchMessage({
      author: alice,
      content: `<@${fakeDiscordBot.id}> what is the capital of France?`,
      mentions: [fakeDiscordBot],
    });
    await eventually(async () => (sentTo(id).length > 0 ? true : null), 'the reply');
    assert.deepEqual(
      sentTo(id).map(({ channelId, content }) => ({ channelId, content })),
      [{ channelId: fakeDiscordChannelId, content: 'echo: what is the capital of France?' }],
    );
    const received = test.received.at(-1);
    assert.deepEqual(received, {
      userId: `discord:${alice.id}`,
      roomId: `discord:${fakeDiscordChannelId}`,
      content: 'what is the capital of France?',
      replyTarget: fakeDiscordChannelId,
    });
    assert.ok(discord.typing.slice(typingBefore).includes(fakeDiscordChannelId), 'typing was shown');
    // The reply pings nobody but the person answered, whatever the model wrote.
    assert.deepEqual(sentTo(id)[0]!.allowedMentions, { parse: [], replied_user: true });
  });

  it('uploads the images a reply produced as attachments after its text', async () => {
    const previous = answer;
    answer = () => ({
      text: 'Here it is.',
      limited: false,
      attachments: [
        {
          fileId: pictureFileId,
          type: 'image',
          mediaType: 'image/png',
          url: `/v1/files/${pictureFileId}`,
          sizeBytes: picture.length,
        },
      ],
    });
    try {
      const id = discord.dispatchMessage({ author: alice, content: 'draw it', direct: true });
      await eventually(async () => (sentTo(id).length >= 2 ? true : null), 'the text and the image');
      assert.equal(sentTo(id)[0]!.content, 'Here it is.');
      const uploaded = sentTo(id)[1]!.files;
      assert.equal(uploaded?.length, 1);
      assert.equal(uploaded![0]!.name, `${pictureFileId}.png`);
      assert.deepEqual(uploaded![0]!.bytes, picture);
    } finally {
      answer = previous;
    }
  });

  it('answers a direct message as a private conversation', async () => {
    const id = discord.dispatchMessage({ author: alice, content: 'hello in private', direct: true });
    await eventually(async () => (sentTo(id).length > 0 ? true : null), 'the DM reply');
    assert.equal(sentTo(id)[0]!.channelId, fakeDiscordDirectChannelId);
    assert.deepEqual(test.received.at(-1), {
      userId: `discord:${alice.id}`,
      content: 'hello in private',
      replyTarget: fakeDiscordDirectChannelId,
    });
  });

  it('ignores messages without a mention, from bots and from itself', async () => {
    const receivedBefore = test.received.length;
    const ignored = [
      discord.dispatchMessage({ author: alice, content: 'just chatting' }),
      discord.dispatchMessage({
        author: otherBot,
        content: `<@${fakeDiscordBot.id}> beep`,
        mentions: [fakeDiscordBot],
      }),
      discord.dispatchMessage({ author: fakeDiscordBot, content: 'my own words', direct: true }),
    ];
    // A message sent after the ignored ones is answered: once its reply is there, they have been seen.
    const marker = discord.dispatchMessage({ author: alice, content: 'marker', direct: true });
    await eventually(async () => (sentTo(marker).length > 0 ? true : null), 'the marker reply');
    for (const id of ignored) assert.equal(sentTo(id).length, 0);
    assert.deepEqual(
      test.received.slice(receivedBefore).map((message) => message.content),
      ['marker'],
    );
  });

  it('splits a long reply into messages of at most 2000 characters', async () => {
    const paragraph = `${'word '.repeat(300)}\n`; // 1,501 characters
    const long = paragraph.repeat(3) + 'x'.repeat(2500);
    answer = () => ({ text: long, limited: false });
    try {
      const id = discord.dispatchMessage({ author: alice, content: 'tell me everything', direct: true });
      const sentLength = () => sentTo(id).reduce((sum, message) => sum + message.content.length, 0);
      await eventually(async () => (sentLength() >= long.length ? true : null), 'the whole split reply');
      const pieces = sentTo(id).map((message) => message.content);
      assert.ok(
        pieces.every((piece) => piece.length <= 2000),
        pieces.map((piece) => piece.length).join(', '),
      );
      assert.equal(pieces.join(''), long);
      assert.equal(pieces.length, 5, 'three paragraphs cut at their line breaks, then 2,500 characters in two');
    } finally {
      answer = (content) => ({ text: `echo: ${content}`, limited: false });
    }
  });

  it('a message refused by the limits still gets its polite reply', async () => {
    answer = () => ({ text: 'I am getting too many messages; please try again in a minute.', limited: true });
    try {
      const id = discord.dispatchMessage({ author: alice, content: 'one more', direct: true });
      await eventually(async () => (sentTo(id).length > 0 ? true : null), 'the polite reply');
      assert.match(sentTo(id)[0]!.content, /too many messages/);
    } finally {
      answer = (content) => ({ text: `echo: ${content}`, limited: false });
    }
  });

  it('a dropped gateway connection is resumed by discord.js and messages are answered again', async () => {
    const resumesBefore = discord.resumes();
    discord.dropConnections();
    await eventually(async () => (discord.resumes() > resumesBefore ? true : null), 'a resume', 15_000);
    const id = discord.dispatchMessage({ author: alice, content: 'still there?', direct: true });
    await eventually(async () => (sentTo(id).length > 0 ? true : null), 'the reply after the resume');
  });

  it('no secret in the log', () => {
    assert.ok(test.log.entries().length > 0);
    assert.ok(!test.log.text().includes(botToken));
  });
});

describe('discord connector: credentials and stopping', () => {
  let fake: FakeDiscord;
  let refusing: FakeDiscord;
  let withoutIntent: FakeDiscord;
  before(async () => {
    fake = await startFakeDiscord({ botToken });
    refusing = await startFakeDiscord({ botToken, closeOnIdentify: 4004 });
    withoutIntent = await startFakeDiscord({ botToken, closeOnIdentify: 4014 });
  });
  after(async () => {
    await fake.close();
    await refusing.close();
    await withoutIntent.close();
  });

  it('a token refused by the REST API (401) is PlatformCredentialsRejected, without the token anywhere', async () => {
    const context = createTestPlatformContext({ apiBaseUrl: fake.apiUrl });
    await assert.rejects(discordPlatform.start(settings, { botToken: wrongToken }, context.context), (error) => {
      assert.ok(error instanceof PlatformCredentialsRejected, String(error));
      assert.match(error.message, /^Discord rejected the bot token/);
      assert.ok(!error.message.includes(wrongToken));
      return true;
    });
    assert.equal(fake.identifies.length, 0, 'no gateway connection was tried');
    assert.ok(!context.log.text().includes(wrongToken));
  });

  it('a token refused by the gateway (close code 4004) is PlatformCredentialsRejected', async () => {
    const context = createTestPlatformContext({ apiBaseUrl: refusing.apiUrl });
    await assert.rejects(discordPlatform.start(settings, { botToken }, context.context), (error) => {
      assert.ok(error instanceof PlatformCredentialsRejected, String(error));
      return true;
    });
    assert.equal(refusing.identifies.length, 1);
    assert.ok(!context.log.text().includes(botToken));
  });

  it('a refused Message Content intent (close code 4014) is reported with what to turn on', async () => {
    const context = createTestPlatformContext({ apiBaseUrl: withoutIntent.apiUrl });
    await assert.rejects(discordPlatform.start(settings, { botToken }, context.context), (error) => {
      assert.ok(error instanceof PlatformCredentialsRejected, String(error));
      assert.match(error.message, /Message Content intent/);
      return true;
    });
  });

  it('an unreachable Discord is a plain failure (retried by the core)', async () => {
    const context = createTestPlatformContext({ apiBaseUrl: 'http://127.0.0.1:9/api' });
    await assert.rejects(discordPlatform.start(settings, { botToken }, context.context), (error) => {
      assert.ok(!(error instanceof PlatformCredentialsRejected), String(error));
      assert.match((error as Error).message, /^Discord connection failed/);
      return true;
    });
  });

  it('answers a message the gateway sends as the bot connects', async () => {
    const greeting = await startFakeDiscord({
      botToken,
      messageOnIdentify: { author: alice, content: 'are you there yet?', direct: true },
    });
    const context = createTestPlatformContext({
      apiBaseUrl: greeting.apiUrl,
      answer: (message) => ({ text: `echo: ${message.content}`, limited: false }),
    });
    const started = await discordPlatform.start(settings, { botToken }, context.context);
    try {
      const [id] = greeting.onIdentifyMessageIds;
      assert.ok(id);
      const replies = await eventually(async () => {
        const found = greeting.sent.filter((message) => message.replyTo === id);
        return found.length > 0 ? found : null;
      }, 'the reply to the first message');
      assert.deepEqual(
        replies.map((message) => message.content),
        ['echo: are you there yet?'],
      );
    } finally {
      await started.stop();
      await greeting.close();
    }
  });

  it('stop closes the gateway connection and nothing is answered afterwards', async () => {
    const context = createTestPlatformContext({ apiBaseUrl: fake.apiUrl });
    const started = await discordPlatform.start(settings, { botToken }, context.context);
    assert.equal(fake.openSockets(), 1);
    const closesBefore = fake.clientCloses.length;
    await started.stop();
    await eventually(async () => (fake.openSockets() === 0 ? true : null), 'the socket to close');
    assert.equal(fake.clientCloses.length, closesBefore + 1);
    assert.deepEqual(context.failures, [], 'stopping is not a failure');
    assert.equal(fake.clientCloses.at(-1), 1000);
    const sentBefore = fake.sent.length;
    fake.dispatchMessage({ author: alice, content: 'anyone?', direct: true });
    await waitFor(() => fake.sent.length > sentBefore, 300);
    assert.equal(fake.sent.length, sentBefore);
  });

  it('a token refused while connected (close 4004) is reported to the core as rejected credentials', async () => {
    const context = createTestPlatformContext({ apiBaseUrl: fake.apiUrl });
    const started = await discordPlatform.start(settings, { botToken }, context.context);
    try {
      assert.equal(context.failures.length, 0);
      fake.closeConnections(4004, 'Authentication failed.');
      await eventually(async () => (context.failures.length > 0 ? true : null), 'the failure report');
      assert.ok(context.failures[0] instanceof PlatformCredentialsRejected);
      assert.match((context.failures[0] as Error).message, /Discord rejected the bot token while connected/);
    } finally {
      await started.stop();
    }
    assert.equal(context.failures.length, 1, 'stopping is not a failure');
  });

  it('aborting the context signal stops the connector too', async () => {
    const context = createTestPlatformContext({ apiBaseUrl: fake.apiUrl });
    await discordPlatform.start(settings, { botToken }, context.context);
    assert.equal(fake.openSockets(), 1);
    context.abort();
    await eventually(async () => (fake.openSockets() === 0 ? true : null), 'the socket to close');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { PlatformCredentialsRejected, type InboundReply } from '../../src/platforms/platform.js';
import { createSlackPlatform } from '../../src/platforms/slack/index.js';
import type { SlackSettings } from '../../src/platforms/slack/settings.js';
import {
  fakeSlackTeam,
  slackEventEnvelope,
  slackSignatureHeaders,
  startFakeSlack,
  type FakeSlack,
} from '../helpers/fake-slack.js';
import { createTestPlatformContext, type TestPlatformContext } from '../helpers/platform-test-context.js';
import { tinyPng } from '../helpers/images.js';
import { eventually, waitFor } from '../helpers/wait.js';

/**
 * The Slack connector driven directly (start, handleInbound) with a test
 * context, against a fake Slack Web API on loopback: signatures and replays,
 * URL verification, which events are answered and how they map to the
 * agent's conversations, replies in thread, retries, and the bot token check.
 */

const botToken = 'xoxb-slack-test-token-5e1a';
const signingSecret = 'slack-signing-secret-7c3d';
const secrets = { botToken, signingSecret };
const settings: SlackSettings = Value.Default(createSlackPlatform().settingsSchema, {}) as SlackSettings;

let slack: FakeSlack;
before(async () => {
  slack = await startFakeSlack({ botToken });
});
after(() => slack.close());

let eventCounter = 0;
const nextEventId = () => `Ev${Date.now()}${(eventCounter += 1)}`;

function postEvent(
  platform: ReturnType<typeof createSlackPlatform>,
  test: TestPlatformContext,
  body: unknown,
  options: { timestamp?: number; secret?: string; headers?: Record<string, string>; path?: string } = {},
) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return platform.handleInbound!(
    {
      path: options.path ?? '/events',
      headers: {
        ...slackSignatureHeaders(options.secret ?? signingSecret, raw, options.timestamp),
        ...options.headers,
      },
      rawBody: Buffer.from(raw),
    },
    settings,
    secrets,
    test.context,
  );
}

function postsTo(channel: string) {
  return slack.posted.filter((posted) => posted.channel === channel);
}

function assertNoSecretLogged(test: TestPlatformContext) {
  const text = test.log.text();
  for (const secret of [botToken, signingSecret]) assert.ok(!text.includes(secret), 'a secret reached the log');
}

describe('slack connector', () => {
  it('declares its schemas and is served by any instance', () => {
    const platform = createSlackPlatform();
    assert.equal(platform.type, 'slack');
    assert.equal(platform.runsOnLease(settings, {}), false);
    assert.ok(Value.Check(platform.secretsSchema, secrets));
    // Masks of kept secrets and imported characters without values pass; a misspelt name does not.
    assert.ok(Value.Check(platform.secretsSchema, { botToken: '••••5e1a' }));
    assert.ok(!Value.Check(platform.secretsSchema, { token: botToken }));
    assert.ok(!Value.Check(platform.settingsSchema, { replyInThread: 'yes' }));
    assert.deepEqual(settings, { replyInThread: true });
  });

  it('does not start, nor take requests, without both secrets, and says which is missing', async () => {
    const test = createTestPlatformContext({ apiBaseUrl: slack.apiUrl });
    const platform = createSlackPlatform();
    await assert.rejects(platform.start(settings, { botToken }, test.context), (error: unknown) => {
      assert.ok(error instanceof PlatformCredentialsRejected);
      assert.equal(error.message, 'Slack needs secrets.signingSecret');
      return true;
    });
    const raw = JSON.stringify({ type: 'url_verification', challenge: 'c' });
    const response = await platform.handleInbound!(
      { path: '/events', headers: slackSignatureHeaders('', raw), rawBody: Buffer.from(raw) },
      settings,
      { botToken },
      test.context,
    );
    assert.equal(response.status, 401);
  });

  it('start checks the bot token with auth.test', async () => {
    const test = createTestPlatformContext({ apiBaseUrl: slack.apiUrl });
    const before = slack.authTests();
    const connection = await createSlackPlatform().start(settings, secrets, test.context);
    assert.equal(slack.authTests(), before + 1);
    await connection.stop();
  });

  it('a refused bot token is PlatformCredentialsRejected, without the token in the error or the log', async () => {
    const test = createTestPlatformContext({ apiBaseUrl: slack.apiUrl });
    const wrongToken = 'xoxb-slack-wrong-token-0d9e';
    await assert.rejects(
      createSlackPlatform().start(settings, { botToken: wrongToken, signingSecret }, test.context),
      (error: unknown) => {
        assert.ok(error instanceof PlatformCredentialsRejected);
        assert.match(error.message, /Slack rejected the bot token: Slack answered invalid_auth/);
        assert.ok(!error.message.includes(wrongToken));
        return true;
      },
    );
    assert.ok(!test.log.text().includes(wrongToken));
  });

  it('an unreachable Slack is a plain failure (retried by the core), not a credentials rejection', async () => {
    const test = createTestPlatformContext({ apiBaseUrl: 'http://127.0.0.1:9/api/' });
    await assert.rejects(createSlackPlatform().start(settings, secrets, test.context), (error: unknown) => {
      assert.ok(!(error instanceof PlatformCredentialsRejected));
      assert.match((error as Error).message, /Slack auth.test failed: Slack could not be reached/);
      return true;
    });
  });

  it('answers URL verification with the challenge', async () => {
    const test = createTestPlatformContext({ apiBaseUrl: slack.apiUrl });
    const response = await postEvent(createSlackPlatform(), test, {
      token: 'x',
      challenge: 'challenge-3f9a',
      type: 'url_verification',
    });
    assert.equal(response.status, 200);
    assert.equal(response.body, 'challenge-3f9a');
  });

  it('acknowledges a mention at once and answers it in a thread through chat.postMessage', async () => {
    let release!: (reply: InboundReply) => void;
    const held = new Promise<InboundReply>((resolve) => (release = resolve));
    const test = createTestPlatformContext({ apiBaseUrl: slack.apiUrl, answer: () => held });
    const channel = `C${Date.now()}`;
    const response = await postEvent(
      createSlackPlatform(),
      test,
      slackEventEnvelope(nextEventId(), {
        type: 'app_mention',
        user: 'U0ALICE',
        text: '<@U0BOT01> what is the capital of France?',
        ts: '1700000000.000100',
        channel,
        event_ts: '1700000000.000100',
      }),
    );
    // Acknowledged while the answer is still being worked on: Slack wants a response within 3 s.
    assert.equal(response.status, 200);
    assert.deepEqual(test.received, [
      {
        userId: `slack:${fakeSlackTeam}:U0ALICE`,
        roomId: `slack:${fakeSlackTeam}:${channel}`,
        content: 'what is the capital of France?',
        replyTarget: `${channel}/1700000000.000100`,
      },
    ]);
    assert.equal(postsTo(channel).length, 0);
    release({ text: 'Paris. <!channel>', limited: false });
    await eventually(async () => (postsTo(channel).length > 0 ? true : null), 'the reply to be posted');
    assert.deepEqual(postsTo(channel), [
      { channel, text: 'Paris. &lt;!channel&gt;', thread_ts: '1700000000.000100', token: botToken },
    ]);
    assert.ok(test.events() >= 1, 'the event was marked');
    assertNoSecretLogged(test);
  });

  it('answers a direct message as a private conversation, in the DM itself', async () => {
    const test = createTestPlatformContext({ apiBaseUrl: slack.apiUrl });
    const channel = `D${Date.now()}`;
    const response = await postEvent(
      createSlackPlatform(),
      test,
      slackEventEnvelope(nextEventId(), {
        type: 'message',
        channel_type: 'im',
        user: 'U0BOB',
        text: 'hello there',
        ts: '1700000001.000200',
        channel,
      }),
    );
    assert.equal(response.status, 200);
    await eventually(async () => (postsTo(channel).length > 0 ? true : null), 'the DM reply');
    assert.deepEqual(test.received, [
      { userId: `slack:${fakeSlackTeam}:U0BOB`, content: 'hello there', replyTarget: channel },
    ]);
    assert.deepEqual(postsTo(channel), [{ channel, text: 'echo: hello there', token: botToken }]);
  });

  it('uploads the images a reply produced into the conversation after its text', async () => {
    const fileId = 'file_01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const picture = tinyPng(4, 3);
    const test = createTestPlatformContext({
      apiBaseUrl: slack.apiUrl,
      answer: () => ({
        text: 'Here it is.',
        limited: false,
        attachments: [
          { fileId, type: 'image', mediaType: 'image/png', url: `/v1/files/${fileId}`, sizeBytes: picture.length },
        ],
      }),
      files: { [fileId]: { bytes: picture, mediaType: 'image/png' } },
    });
    const channel = `D${Date.now()}P`;
    await postEvent(
      createSlackPlatform(),
      test,
      slackEventEnvelope(nextEventId(), {
        type: 'message',
        channel_type: 'im',
        user: 'U0BOB',
        text: 'draw it',
        ts: '1700000003.000400',
        channel,
      }),
    );
    const uploaded = await eventually(
      async () => slack.uploads.find((upload) => upload.channel === channel) ?? null,
      'the upload shared in the DM',
    );
    assert.equal(postsTo(channel)[0]!.text, 'Here it is.');
    assert.equal(uploaded.filename, `${fileId}.png`);
    assert.deepEqual(uploaded.bytes, picture);
  });

  it('a message refused by the limits still gets its polite reply', async () => {
    const test = createTestPlatformContext({
      apiBaseUrl: slack.apiUrl,
      answer: () => ({ text: 'I am getting too many messages; please try again in a minute.', limited: true }),
    });
    const channel = `D${Date.now()}L`;
    await postEvent(
      createSlackPlatform(),
      test,
      slackEventEnvelope(nextEventId(), {
        type: 'message',
        channel_type: 'im',
        user: 'U0BOB',
        text: 'one more',
        ts: '1700000002.000300',
        channel,
      }),
    );
    await eventually(async () => (postsTo(channel).length > 0 ? true : null), 'the polite reply');
    assert.match(postsTo(channel)[0]!.text, /too many messages/);
  });

  it('refuses a wrong signature, a missing one and a replayed request with 401, and processes nothing', async () => {
    const platform = createSlackPlatform();
    const test = createTestPlatformContext({ apiBaseUrl: slack.apiUrl });
    const channel = `C${Date.now()}X`;
    const event = (id: string) =>
      slackEventEnvelope(id, { type: 'app_mention', user: 'U0EVE', text: 'hi', ts: '1.1', channel });

    const wrong = await postEvent(platform, test, event(nextEventId()), { secret: 'not-the-signing-secret' });
    assert.equal(wrong.status, 401);

    const raw = JSON.stringify(event(nextEventId()));
    const unsigned = await platform.handleInbound!(
      { path: '/events', headers: { 'content-type': 'application/json' }, rawBody: Buffer.from(raw) },
      settings,
      secrets,
      test.context,
    );
    assert.equal(unsigned.status, 401);

    // Signed right, but six minutes ago: a captured request sent again.
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 6 * 60;
    const replayed = await postEvent(platform, test, event(nextEventId()), { timestamp: sixMinutesAgo });
    assert.equal(replayed.status, 401);
    assert.match(JSON.stringify(replayed.body), /more than 5 minutes/);

    // A body changed after signing.
    const signedBody = JSON.stringify(event(nextEventId()));
    const tampered = await platform.handleInbound!(
      {
        path: '/events',
        headers: slackSignatureHeaders(signingSecret, signedBody),
        rawBody: Buffer.from(signedBody.replace('hi', 'ho')),
      },
      settings,
      secrets,
      test.context,
    );
    assert.equal(tampered.status, 401);

    assert.equal(test.received.length, 0);
    assert.equal(test.events(), 0);
    assert.equal(postsTo(channel).length, 0);
    assertNoSecretLogged(test);
  });

  it('answers an event once when Slack retries it, and answers a retry of an event it never took', async () => {
    const platform = createSlackPlatform();
    const test = createTestPlatformContext({ apiBaseUrl: slack.apiUrl });
    const channel = `C${Date.now()}R`;
    const body = slackEventEnvelope(nextEventId(), {
      type: 'app_mention',
      user: 'U0ALICE',
      text: '<@U0BOT01> once please',
      ts: '1700000003.000400',
      channel,
    });
    assert.equal((await postEvent(platform, test, body)).status, 200);
    for (const retry of ['1', '2']) {
      const response = await postEvent(platform, test, body, {
        headers: { 'x-slack-retry-num': retry, 'x-slack-retry-reason': 'http_timeout' },
      });
      assert.equal(response.status, 200);
    }
    await eventually(async () => (postsTo(channel).length > 0 ? true : null), 'the reply');
    // Give a wrongly accepted retry the time to reach the fake too before counting.
    await waitFor(() => postsTo(channel).length > 1, 300);
    assert.equal(test.received.length, 1);
    assert.equal(postsTo(channel).length, 1);

    // This instance never saw this event (its first delivery went elsewhere or was lost): it is answered.
    const other = slackEventEnvelope(nextEventId(), {
      type: 'app_mention',
      user: 'U0ALICE',
      text: '<@U0BOT01> again',
      ts: '1700000004.000500',
      channel,
    });
    await postEvent(platform, test, other, { headers: { 'x-slack-retry-num': '1' } });
    await eventually(async () => (postsTo(channel).length > 1 ? true : null), 'the retried event answered');
  });

  it('ignores bot messages, edits and joins, and channel messages that do not mention the bot', async () => {
    const platform = createSlackPlatform();
    const test = createTestPlatformContext({ apiBaseUrl: slack.apiUrl });
    const channel = `C${Date.now()}I`;
    const ignored = [
      { type: 'message', channel_type: 'im', bot_id: 'B0OTHER', user: 'U0BOTUSER', text: 'beep', ts: '2.1', channel },
      {
        type: 'message',
        channel_type: 'im',
        subtype: 'message_changed',
        user: 'U0BOB',
        text: 'edit',
        ts: '2.2',
        channel,
      },
      { type: 'message', subtype: 'channel_join', user: 'U0BOB', text: 'joined', ts: '2.3', channel },
      { type: 'message', channel_type: 'channel', user: 'U0BOB', text: 'chatter', ts: '2.4', channel },
      { type: 'reaction_added', user: 'U0BOB', reaction: 'thumbsup' },
      { type: 'app_mention', user: 'U0BOB', text: '<@U0BOT01>', ts: '2.5', channel },
    ];
    for (const event of ignored) {
      const response = await postEvent(platform, test, slackEventEnvelope(nextEventId(), event));
      assert.equal(response.status, 200, JSON.stringify(event));
    }
    assert.equal(test.received.length, 0);
    assert.equal(postsTo(channel).length, 0);
  });

  it('answers a bad body with 400 and an unknown path with 404', async () => {
    const platform = createSlackPlatform();
    const test = createTestPlatformContext({ apiBaseUrl: slack.apiUrl });
    assert.equal((await postEvent(platform, test, '{not json')).status, 400);
    assert.equal((await postEvent(platform, test, '[1,2]')).status, 400);
    const missing = await postEvent(platform, test, { type: 'event_callback', event: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual((missing.body as { problems: unknown }).problems, [
      { path: '/event_id', message: 'An event_callback must carry event_id and event.' },
    ]);
    assert.equal((await postEvent(platform, test, { type: 'url_verification' }, { path: '/other' })).status, 404);
    assert.equal(test.received.length, 0);
  });
});

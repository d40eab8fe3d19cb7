import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram-server.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';
import { createTestApp, generousRateLimits, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';
import { webhookSecretFor } from '../../src/platforms/telegram/telegram-platform.js';
import { limitedReplyText } from '../../src/services/platforms/platform-messages.js';

const pollingToken = '424242:telegram-polling-secret-a1b2';
const badToken = '424243:telegram-bad-secret-c3d4';
const webhookToken = '424244:telegram-webhook-secret-e5f6';
const limitedToken = '424245:telegram-limited-secret-g7h8';
const outageToken = '424247:telegram-outage-secret-ab12';
/** The agents' per-minute message budget in the polling tests: small, so a test can spend it. */
const messagesPerMinute = 5;
const signingSecret = 'whsec_cGxhdGZvcm0td2ViaG9vay1zZWNyZXQtMDE=';
const secrets = [pollingToken, badToken, webhookToken, limitedToken, outageToken, signingSecret];

/** Quick reconciles, so that a test sees a change within its bounds on a loaded machine. */
const platformEnv = (telegram: FakeTelegram) => ({
  AGENTD_TELEGRAM_API_URL: telegram.apiRoot,
  AGENTD_PLATFORM_CHANGE_POLL_MS: '100',
  AGENTD_PLATFORM_RECONCILE_MS: '5000',
});

function assertNoSecret(text: string) {
  for (const secret of secrets) assert.ok(!text.includes(secret), 'a secret appears in a response');
}

async function platformReport(t: TestApp, agentId: string) {
  const response = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/platforms` });
  assert.equal(response.statusCode, 200, response.body);
  assertNoSecret(response.body);
  return response.json().data as Array<Record<string, any>>;
}

async function stateOf(t: TestApp, agentId: string, type: string): Promise<string | undefined> {
  return (await platformReport(t, agentId)).find((entry) => entry.type === type)?.state;
}

describe('platforms: catalog and validation', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t?.close());

  it('lists the platform types with their schemas to any valid key', async () => {
    const reader = await t.newKey(t.owner.accountId, ['agents:read']);
    const response = await t.inject({ method: 'GET', url: '/v1/platforms', as: reader });
    assert.equal(response.statusCode, 200);
    const types = response.json().data.map((entry: any) => entry.type);
    assert.ok(types.includes('telegram') && types.includes('webhook'));
    const telegram = response.json().data.find((entry: any) => entry.type === 'telegram');
    assert.ok(telegram.secretsSchema.properties.botToken);
    assert.equal(telegram.settingsSchema.properties.pollTimeoutSeconds.default, 25);
  });

  it('refuses settings and secrets the connector does not accept, every problem at once, changing nothing', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/v1/agents',
      payload: {
        name: 'Bad platforms',
        platforms: [
          { type: 'telegram', settings: { pollTimeoutSeconds: 'soon', chat: 'x' }, secrets: { token: 'x' } },
          { type: 'webhook', settings: { callbackUrl: 'ftp://example.com' } },
        ],
      },
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
    const paths = response.json().errors.map((error: any) => error.path);
    for (const expected of [
      '/body/platforms/0/settings/pollTimeoutSeconds',
      '/body/platforms/0/settings/chat',
      '/body/platforms/0/secrets/token',
      '/body/platforms/1/settings/callbackUrl',
      '/body/platforms/1/secrets/signingSecret',
    ]) {
      assert.ok(paths.includes(expected), `${expected} in ${JSON.stringify(paths)}`);
    }
    const listed = await t.inject({ method: 'GET', url: '/v1/agents' });
    assert.ok(!listed.json().data.some((agent: any) => agent.name === 'Bad platforms'));
  });

  it('keeps a platform type it does not run, reported unsupported', async () => {
    const agent = await t.newAgent({ platforms: [{ type: 'mastodon', settings: { handle: 'ava' } }] });
    assert.deepEqual(
      (await platformReport(t, agent.id)).map(({ type, state }) => ({ type, state })),
      [{ type: 'mastodon', state: 'unsupported' }],
    );
  });

  it('answers 404 for the platform report of another account’s agent', async () => {
    const agent = await t.newAgent();
    const stranger = await t.newAccount();
    const response = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/platforms`, as: stranger });
    assert.equal(response.statusCode, 404);
  });
});

describe('platforms: Telegram long polling', () => {
  let t: TestApp;
  let telegram: FakeTelegram;

  /**
   * The bot is no longer polled within a second of `since`: no getUpdates starts later than that, and none is
   * left waiting. Observed over a window, as absence can only be.
   */
  async function assertPollingStopped(token: string, since: number) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const late = telegram.callsOf('getUpdates', token).filter((call) => call.at > since + 1000);
    assert.deepEqual(late, [], 'no getUpdates later than a second after the change');
    assert.equal(telegram.isPolling(token), false, 'no long poll left waiting');
  }

  before(async () => {
    telegram = await startFakeTelegram();
    telegram.addBot(pollingToken);
    telegram.addBot(limitedToken);
    telegram.addBot(outageToken);
    t = await createTestApp({
      platforms: true,
      env: { ...platformEnv(telegram), AGENTD_RATE_LIMITS: `${generousRateLimits},sendMessage=${messagesPerMinute}` },
    });
  });
  after(async () => {
    await t?.close();
    await telegram?.close();
  });

  it('answers a user through the agent, with its memory, typing while it works', async () => {
    const agent = await t.newAgent({ platforms: [{ type: 'telegram', secrets: { botToken: pollingToken } }] });
    await eventually(async () => ((await stateOf(t, agent.id, 'telegram')) === 'running' ? true : null), 'running');
    await eventually(async () => (telegram.isPolling(pollingToken) ? true : null), 'a long poll');

    telegram.injectMessage(pollingToken, { chatId: 4001, fromId: 4001, text: 'My name is Zed' });
    const first = await eventually(async () => telegram.sentTo(pollingToken, 4001)[0] ?? null, 'the first reply');
    assert.match(first, /You said: “My name is Zed”/);
    assert.match(first, /Hello telegram:4001/);
    assert.ok(telegram.callsOf('sendChatAction', pollingToken).some((call) => call.body.action === 'typing'));

    telegram.injectMessage(pollingToken, { chatId: 4001, fromId: 4001, text: 'What did I say?' });
    const second = await eventually(async () => telegram.sentTo(pollingToken, 4001)[1] ?? null, 'the second reply');
    assert.match(second, /Earlier you said: “My name is Zed”/, 'the second message sees the first');

    const history = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=telegram:4001` });
    assert.equal(history.statusCode, 200);
    assert.equal(history.json().data.length, 4, 'the same memory as the HTTP API');

    const report = (await platformReport(t, agent.id))[0]!;
    assert.equal(report.state, 'running');
    assert.ok(report.lastEventAt, 'lastEventAt is set');
    const events = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/events` });
    assert.ok(events.json().data.some((event: any) => event.type === 'connector.started'));

    // A group: the chat is the room, the sender the user.
    telegram.injectMessage(pollingToken, { chatId: -5001, fromId: 4002, text: 'hi all', chatType: 'group' });
    const group = await eventually(async () => telegram.sentTo(pollingToken, -5001)[0] ?? null, 'the group reply');
    assert.match(group, /Hello telegram:4002/);
    const room = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?roomId=telegram:-5001` });
    assert.equal(room.json().data.length, 2);

    // inactive stops polling within a second: the waiting long poll is dropped and no new one starts.
    const patchedAt = Date.now();
    const patched = await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'inactive' } });
    assert.equal(patched.statusCode, 200);
    await assertPollingStopped(pollingToken, patchedAt);
    const stopped = (await platformReport(t, agent.id))[0]!;
    assert.equal(stopped.state, 'stopped');
    assert.match(stopped.reason, /inactive/);
    const trail = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/events` });
    const stopEvent = trail.json().data.find((event: any) => event.type === 'connector.stopped');
    assert.equal(stopEvent?.data.platform, 'telegram');
    assert.equal(stopEvent?.actor, 'service');
  });

  it('retries a Bot API outage with backoff, leaving the agent active, and stops on disable and on delete', async () => {
    telegram.failNext('getMe', 1);
    const agent = await t.newAgent({ platforms: [{ type: 'telegram', secrets: { botToken: outageToken } }] });
    const failing = await eventually(async () => {
      const entry = (await platformReport(t, agent.id))[0]!;
      return entry.state === 'error' ? entry : null;
    }, 'the outage reported');
    assert.match(failing.reason, /Telegram answered 502.*retrying/);
    const during = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` });
    assert.equal(during.json().status, 'active', 'a network fault never changes the status');
    await eventually(async () => ((await stateOf(t, agent.id, 'telegram')) === 'running' ? true : null), 'recovered');
    await eventually(async () => (telegram.isPolling(outageToken) ? true : null), 'a long poll');

    const disabledAt = Date.now();
    const disabled = await t.inject({
      method: 'PATCH',
      url: `/v1/agents/${agent.id}`,
      payload: { platforms: [{ type: 'telegram', enabled: false, secrets: { botToken: '••••ab12' } }] },
    });
    assert.equal(disabled.statusCode, 200, disabled.body);
    await assertPollingStopped(outageToken, disabledAt);
    assert.equal((await platformReport(t, agent.id))[0]!.state, 'stopped');

    const enabled = await t.inject({
      method: 'PATCH',
      url: `/v1/agents/${agent.id}`,
      payload: { platforms: [{ type: 'telegram', enabled: true, secrets: { botToken: '••••ab12' } }] },
    });
    assert.equal(enabled.statusCode, 200);
    await eventually(async () => (telegram.isPolling(outageToken) ? true : null), 'polling again with the kept token');
    const deletedAt = Date.now();
    const deleted = await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}` });
    assert.equal(deleted.statusCode, 200);
    await assertPollingStopped(outageToken, deletedAt);
  });

  it('sets the agent to error, naming Telegram, when the token is rejected', async () => {
    const agent = await t.newAgent({ platforms: [{ type: 'telegram', secrets: { botToken: badToken } }] });
    const errored = await eventually<any>(async () => {
      const response = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` });
      return response.json().status === 'error' ? response.json() : null;
    }, 'the agent in error');
    assert.match(errored.statusReason, /Telegram rejected the bot token \(401/);
    assertNoSecret(JSON.stringify(errored));
    const report = (await platformReport(t, agent.id))[0]!;
    assert.equal(report.state, 'error');
    assert.match(report.reason, /Telegram/);
    const events = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/events` });
    const types = events.json().data.map((event: any) => event.type);
    assert.ok(types.includes('connector.failed') && types.includes('agent.status_changed'), types.join());
    assertNoSecret(events.body);
  });

  it('gives a rate-limited platform message a short polite reply', async () => {
    const agent = await t.newAgent({ platforms: [{ type: 'telegram', secrets: { botToken: limitedToken } }] });
    await eventually(async () => (telegram.isPolling(limitedToken) ? true : null), 'a long poll');
    // The agent's per-minute budget is shared with the HTTP route: spend it there.
    for (let sent = 0; sent < messagesPerMinute; sent += 1) {
      const response = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: `spending ${sent}` },
      });
      assert.equal(response.statusCode, 200);
    }
    telegram.injectMessage(limitedToken, { chatId: 4100, fromId: 4100, text: 'hello?' });
    const reply = await eventually(async () => telegram.sentTo(limitedToken, 4100)[0] ?? null, 'the limited reply');
    assert.equal(reply, limitedReplyText);
  });
});

describe('platforms: Telegram webhook mode', () => {
  let t: TestApp;
  let telegram: FakeTelegram;
  before(async () => {
    telegram = await startFakeTelegram();
    telegram.addBot(webhookToken);
    t = await createTestApp({
      platforms: true,
      env: { ...platformEnv(telegram), AGENTD_PUBLIC_BASE_URL: 'https://agents.example.com' },
    });
  });
  after(async () => {
    await t?.close();
    await telegram?.close();
  });

  it('sets the webhook with a secret token, refuses a wrong one (401, nothing processed), answers a right one', async () => {
    const agent = await t.newAgent({ platforms: [{ type: 'telegram', secrets: { botToken: webhookToken } }] });
    const setWebhook = await eventually(
      async () => telegram.callsOf('setWebhook', webhookToken)[0] ?? null,
      'setWebhook',
    );
    assert.equal(setWebhook.body.url, `https://agents.example.com/v1/platforms/telegram/${agent.id}/webhook`);
    assert.equal(setWebhook.body.secret_token, webhookSecretFor(webhookToken));
    assert.equal(telegram.callsOf('getUpdates', webhookToken).length, 0, 'no polling in webhook mode');

    const update = (id: number, text: string) => ({
      update_id: id,
      message: { message_id: id, date: 0, chat: { id: 777, type: 'private' }, from: { id: 777 }, text },
    });
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/v1/platforms/telegram/${agent.id}/webhook`,
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'not-the-secret' },
      payload: JSON.stringify(update(9001, 'sneaky')),
    });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().code, 'unauthorized');
    const missing = await t.app.inject({
      method: 'POST',
      url: `/v1/platforms/telegram/${agent.id}/webhook`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(update(9002, 'sneaky')),
    });
    assert.equal(missing.statusCode, 401);

    const right = await t.app.inject({
      method: 'POST',
      url: `/v1/platforms/telegram/${agent.id}/webhook`,
      headers: {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': webhookSecretFor(webhookToken),
      },
      payload: JSON.stringify(update(9003, 'hello by webhook')),
    });
    assert.equal(right.statusCode, 200);
    const replies = await eventually(async () => {
      const sent = telegram.sentTo(webhookToken, 777);
      return sent.length > 0 ? sent : null;
    }, 'the reply');
    assert.equal(replies.length, 1);
    assert.match(replies[0]!, /hello by webhook/);
    assert.ok(!replies[0]!.includes('sneaky'), 'the refused updates were not processed');
    const history = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=telegram:777` });
    assert.equal(history.json().data.length, 2, 'only the accepted update reached the agent');

    // Telegram sends an update again when unsure it arrived: answered once.
    const again = await t.app.inject({
      method: 'POST',
      url: `/v1/platforms/telegram/${agent.id}/webhook`,
      headers: {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': webhookSecretFor(webhookToken),
      },
      payload: JSON.stringify(update(9003, 'hello by webhook')),
    });
    assert.equal(again.statusCode, 200);
    const unknownAgent = await t.app.inject({
      method: 'POST',
      url: `/v1/platforms/telegram/agt_01J00000000000000000000000/webhook`,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    assert.equal(unknownAgent.statusCode, 404);
  });
});

describe('platforms: the generic webhook', () => {
  let t: TestApp;
  let callback: LoopbackHttpServer;
  before(async () => {
    callback = await startLoopbackHttpServer((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    t = await createTestApp({ env: { AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true', AGENTD_RATE_LIMITS: generousRateLimits } });
  });
  after(async () => {
    await t?.close();
    await callback?.close();
  });

  const signer = new Webhook(signingSecret);
  function signed(body: unknown, options: { id?: string; at?: Date; secret?: string } = {}) {
    const payload = JSON.stringify(body);
    const id = options.id ?? `msg_${Math.random().toString(36).slice(2)}`;
    const at = options.at ?? new Date();
    const signature = (options.secret ? new Webhook(options.secret) : signer).sign(id, at, payload);
    return {
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
      payload,
    };
  }

  it('answers a well-signed message in the response, acknowledges its repeat unanswered, and refuses wrong and old signatures', async () => {
    const agent = await t.newAgent({ platforms: [{ type: 'webhook', secrets: { signingSecret } }] });
    assert.deepEqual(agent.platforms[0].secrets, { signingSecret: '••••MDE=' });
    const url = `/v1/platforms/webhook/${agent.id}`;
    const good = signed({ userId: 'u1', text: 'hello hook' }, { id: 'msg_replayed_once' });
    const response = await t.app.inject({ method: 'POST', url, ...good });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(response.json().text, /You said: “hello hook”/);
    assert.equal(response.json().reply, response.json().text, 'the deprecated copy of text');
    assert.equal(response.json().limited, false);

    // The same message again (the sender retried): acknowledged, not answered a second time.
    const replayed = await t.app.inject({ method: 'POST', url, ...good });
    assert.equal(replayed.statusCode, 202, 'the same message again');
    assert.deepEqual(replayed.json(), { accepted: true, requestId: 'msg_replayed_once', duplicate: true });
    const wrong = await t.app.inject({
      method: 'POST',
      url,
      ...signed({ userId: 'u1', text: 'forged' }, { secret: 'whsec_d3JvbmctYnV0LXdlbGwtZm9ybWVkLXNlY3JldA==' }),
    });
    assert.equal(wrong.statusCode, 401);
    const old = await t.app.inject({
      method: 'POST',
      url,
      ...signed({ userId: 'u1', text: 'stale' }, { at: new Date(Date.now() - 6 * 60 * 1000) }),
    });
    assert.equal(old.statusCode, 401);
    const tampered = signed({ userId: 'u1', text: 'original' });
    const changed = await t.app.inject({
      method: 'POST',
      url,
      headers: tampered.headers,
      payload: tampered.payload.replace('original', 'changed!'),
    });
    assert.equal(changed.statusCode, 401);
    const invalid = await t.app.inject({ method: 'POST', url, ...signed({ user: 'u1' }) });
    assert.equal(invalid.statusCode, 400);
    assert.ok(invalid.json().errors.some((error: any) => error.path === '/body/userId'));

    const history = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=webhook:u1` });
    assert.equal(history.json().data.length, 2, 'only the good message was processed');
    for (const body of [response.body, replayed.body, wrong.body, old.body]) assertNoSecret(body);
  });

  it('answers 202 and posts the reply, signed, to the callback when the reply takes longer than the wait', async () => {
    const agent = await t.newAgent({
      platforms: [
        {
          type: 'webhook',
          settings: { callbackUrl: `${callback.origin}/replies`, replyWaitMs: 0 },
          secrets: { signingSecret },
        },
      ],
    });
    const request = signed({ userId: 'u2', roomId: 'r1', text: 'call me back' });
    const response = await t.app.inject({ method: 'POST', url: `/v1/platforms/webhook/${agent.id}`, ...request });
    assert.equal(response.statusCode, 202, response.body);
    assert.equal(response.json().requestId, request.headers['webhook-id']);
    const delivered = await eventually(
      async () => callback.received.find((received) => received.path === '/replies') ?? null,
      'the callback',
    );
    const body = signer.verify(delivered.body, delivered.headers as Record<string, string>) as Record<string, any>;
    assert.equal(body.requestId, request.headers['webhook-id']);
    assert.equal(body.roomId, 'r1');
    assert.match(body.text, /call me back/);
    assert.equal(body.reply, body.text, 'the deprecated copy of text');
  });

  it('still takes the message in `content`, the deprecated name of `text`', async () => {
    const agent = await t.newAgent({ platforms: [{ type: 'webhook', secrets: { signingSecret } }] });
    const url = `/v1/platforms/webhook/${agent.id}`;
    const alias = await t.app.inject({ method: 'POST', url, ...signed({ userId: 'u3', content: 'old sender' }) });
    assert.equal(alias.statusCode, 200, alias.body);
    assert.match(alias.json().text, /You said: “old sender”/);
    const both = await t.app.inject({
      method: 'POST',
      url,
      ...signed({ userId: 'u3', text: 'same words', content: 'same words' }),
    });
    assert.equal(both.statusCode, 200, 'the same message under both names is one message');
    assert.match(both.json().text, /You said: “same words”/);
  });

  it('refuses a body whose `text` and `content` differ, or that has neither, naming the field; nothing is processed', async () => {
    const agent = await t.newAgent({ platforms: [{ type: 'webhook', secrets: { signingSecret } }] });
    const url = `/v1/platforms/webhook/${agent.id}`;
    const conflict = await t.app.inject({
      method: 'POST',
      url,
      ...signed({ userId: 'u4', text: 'one thing', content: 'another' }),
    });
    assert.equal(conflict.statusCode, 400, conflict.body);
    assert.match(conflict.headers['content-type'] as string, /application\/problem\+json/);
    const problem = conflict.json();
    assert.equal(problem.code, 'validation_failed');
    assert.deepEqual(
      problem.errors.map((error: any) => error.path),
      ['/body/content'],
    );
    assert.match(problem.detail, /content differs from text/);

    const missing = await t.app.inject({ method: 'POST', url, ...signed({ userId: 'u4' }) });
    assert.equal(missing.statusCode, 400, missing.body);
    assert.deepEqual(
      missing.json().errors.map((error: any) => error.path),
      ['/body/text'],
    );

    const history = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=webhook:u4` });
    assert.equal(history.json().data.length, 0, 'neither refused body reached the agent');
  });
});

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { webhookSecretFor } from '../../src/platforms/telegram/telegram-platform.js';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { callJson } from '../helpers/call-json.js';
import { postgresSkip, redisSkip, redisUrl } from '../helpers/environment.js';
import { slackEventEnvelope, slackSignatureHeaders, startFakeSlack, type FakeSlack } from '../helpers/fake-slack.js';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram-server.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';
import { randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { eventually, waitFor } from '../helpers/wait.js';

/**
 * Two `agentd serve` processes on one PostgreSQL and one Redis, the
 * platforms reaching either (docs/platform-input.md): a Slack event retried
 * to the other instance, and a generic webhook message sent to both, are
 * answered once; a Telegram update (webhook mode) whose instance is killed
 * while answering it is answered once, by the other instance, after its
 * claim runs out.
 */
const telegramToken = '424251:telegram-input-secret-m3n4';
const slackBotToken = 'xoxb-input-instances-token-8f2b';
const slackSigningSecret = 'slack-input-signing-secret-1d7e';
const webhookSecret = `whsec_${Buffer.from('platform-input-instances-secret').toString('base64')}`;
const claimMs = 3000;

describe('platform input on two instances', { skip: postgresSkip || redisSkip }, () => {
  const bootstrapKey = generateApiKey();
  const redisPrefix = randomRedisPrefix();
  const dataDirs: string[] = [];
  let database: FreshDatabase;
  let telegram: FakeTelegram;
  let slack: FakeSlack;
  const servers: ServerProcess[] = [];
  const secrets = [telegramToken, slackBotToken, slackSigningSecret, webhookSecret];

  const call = (server: ServerProcess, method: string, url: string, body?: unknown) =>
    callJson(server.url, bootstrapKey, method, url, body, secrets);

  before(async () => {
    database = await createFreshDatabase();
    telegram = await startFakeTelegram();
    telegram.addBot(telegramToken);
    slack = await startFakeSlack({ botToken: slackBotToken });
    const environment = {
      DATABASE_URL: database.url,
      AGENTD_DATABASE_POOL_SIZE: '4',
      REDIS_URL: redisUrl as string,
      AGENTD_REDIS_PREFIX: redisPrefix,
      AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
      AGENTD_BOOTSTRAP_KEY: bootstrapKey,
      AGENTD_TELEGRAM_API_URL: telegram.apiRoot,
      AGENTD_SLACK_API_URL: slack.apiUrl,
      // Telegram in webhook mode: every instance serves its updates.
      AGENTD_PUBLIC_BASE_URL: 'https://agents.example.com',
      // An item's claim lives as long as a connector's lease.
      AGENTD_PLATFORM_LEASE_MS: String(claimMs),
      AGENTD_PLATFORM_CHANGE_POLL_MS: '100',
      AGENTD_BUILTIN_WORD_DELAY_MS: '0',
      AGENTD_SHUTDOWN_TIMEOUT_MS: '2000',
    };
    const start = (name: string) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-input-'));
      dataDirs.push(dataDir);
      return startServer({ ...environment, AGENTD_DATA_DIR: dataDir, AGENTD_INSTANCE_ID: name });
    };
    // One first, so that it migrates and bootstraps alone; then the other.
    servers.push(await start('first'));
    servers.push(await start('second'));
  });

  after(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    await telegram?.close();
    await slack?.close();
    await database?.drop();
    await removeRedisKeys(redisPrefix);
    for (const directory of dataDirs) fs.rmSync(directory, { recursive: true, force: true });
  });

  async function newAgent(name: string, platform: Record<string, unknown>): Promise<string> {
    const created = await call(servers[0]!, 'POST', '/v1/agents', { name, platforms: [platform] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.id as string;
  }

  /** What users said in a conversation (`userId=…` or `roomId=…`), as any instance reads it. */
  async function userMessages(agentId: string, conversation: string): Promise<string[]> {
    const history = await call(servers.at(-1)!, 'GET', `/v1/agents/${agentId}/messages?${conversation}`);
    return (history.body.data as Array<{ role: string; text: string }>)
      .filter((message) => message.role === 'user')
      .map((message) => message.text);
  }

  it('Slack: an event retried to the other instance is acknowledged there and answered once', async () => {
    const authTestsBefore = slack.authTests();
    const agentId = await newAgent('Slack twice', {
      type: 'slack',
      secrets: { botToken: slackBotToken, signingSecret: slackSigningSecret },
    });
    await eventually(async () => (slack.authTests() >= authTestsBefore + 2 ? true : null), 'both connectors', 15_000);
    const channel = 'C0INPUT01';
    const body = JSON.stringify(
      slackEventEnvelope('Ev0INPUT0001', {
        type: 'app_mention',
        user: 'U0ALICE',
        text: '<@U0BOT01> only once, please',
        ts: '1700000100.000100',
        channel,
      }),
    );
    const post = (server: ServerProcess, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/v1/platforms/slack/${agentId}/events`, {
        method: 'POST',
        headers: { ...slackSignatureHeaders(slackSigningSecret, body), ...headers },
        body,
      });
    const first = await post(servers[0]!);
    assert.equal(first.status, 200);
    // Slack did not see that acknowledgement in time and retries; the load balancer sends it to the other instance.
    const retry = await post(servers[1]!, { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' });
    assert.equal(retry.status, 200, 'the retry is acknowledged');
    await eventually(async () => (slack.posted.some((posted) => posted.channel === channel) ? true : null), 'a reply');
    // A second answer would reach the fake within the same time the first took; absence is observed over a window.
    await waitFor(() => slack.posted.filter((posted) => posted.channel === channel).length > 1, 1500);
    const replies = slack.posted.filter((posted) => posted.channel === channel);
    assert.equal(replies.length, 1, 'answered once');
    assert.match(replies[0]!.text, /only once, please/);
    assert.deepEqual(await userMessages(agentId, `roomId=slack:T0TEAM1:${channel}`), ['only once, please']);
  });

  it('generic webhook: the same id sent to both instances at once is answered once, the other acknowledged', async () => {
    const agentId = await newAgent('Webhook twice', { type: 'webhook', secrets: { signingSecret: webhookSecret } });
    const payload = JSON.stringify({ userId: 'sender-1', text: 'hello from both sides' });
    const id = 'msg_input_instances_1';
    const at = new Date();
    const headers = {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(webhookSecret).sign(id, at, payload),
    };
    const responses = await Promise.all(
      servers.map((server) =>
        fetch(`${server.url}/v1/platforms/webhook/${agentId}`, { method: 'POST', headers, body: payload }),
      ),
    );
    const answers = await Promise.all(
      responses.map(async (response) => ({
        status: response.status,
        body: (await response.json()) as Record<string, any>,
      })),
    );
    const replied = answers.filter((answer) => answer.status === 200);
    const duplicates = answers.filter((answer) => answer.status === 202);
    assert.equal(replied.length, 1, JSON.stringify(answers));
    assert.match(replied[0]!.body.text, /hello from both sides/);
    assert.equal(duplicates.length, 1, JSON.stringify(answers));
    assert.deepEqual(duplicates[0]!.body, { accepted: true, requestId: id, duplicate: true });
    assert.deepEqual(await userMessages(agentId, 'userId=webhook:sender-1'), ['hello from both sides']);
  });

  it('Telegram webhook mode: an update whose instance is killed while answering is answered once by the other', async () => {
    const agentId = await newAgent('Telegram killed', { type: 'telegram', secrets: { botToken: telegramToken } });
    await eventually(
      async () => (telegram.callsOf('setWebhook', telegramToken).length >= 2 ? true : null),
      'both instances serving the webhook',
      15_000,
    );
    const chatId = 7101;
    const update = {
      update_id: 880001,
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: 'private' },
        from: { id: chatId, is_bot: false, first_name: 'Test' },
        text: 'answer me despite the crash',
      },
    };
    // The instance answering hangs on its typing call: it took the update and has not replied when it is killed.
    telegram.holdNext('sendChatAction', 1);
    const [doomed, survivor] = servers as [ServerProcess, ServerProcess];
    const response = await fetch(`${doomed.url}/v1/platforms/telegram/${agentId}/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': webhookSecretFor(telegramToken),
      },
      body: JSON.stringify(update),
    });
    assert.equal(response.status, 200, 'acknowledged once recorded');
    await eventually(
      async () =>
        telegram.callsOf('sendChatAction', telegramToken).some((each) => each.body.chat_id === chatId) ? true : null,
      'the first instance answering',
      10_000,
    );
    const killedAt = Date.now();
    await doomed.stop('SIGKILL');
    servers.splice(servers.indexOf(doomed), 1);

    // Telegram has its 200 and does not send the update again: the survivor takes it over once the claim runs out.
    await eventually(async () => telegram.sentTo(telegramToken, chatId)[0] ?? null, 'the reply', 30_000);
    const answeredInMs = Date.now() - killedAt;
    console.log(`# taken over and answered ${answeredInMs} ms after the SIGKILL (claim ${claimMs} ms)`);
    assert.ok(answeredInMs < 2 * claimMs + 5000, `answered ${answeredInMs} ms after the kill`);
    await waitFor(() => telegram.sentTo(telegramToken, chatId).length > 1, 1500);
    const replies = telegram.sentTo(telegramToken, chatId);
    assert.equal(replies.length, 1, 'answered once');
    assert.match(replies[0]!, /answer me despite the crash/);
    assert.ok(
      survivor.logEntries().some((entry) => entry.msg === 'platform item left unanswered, taken over and answered now'),
    );
  });
});

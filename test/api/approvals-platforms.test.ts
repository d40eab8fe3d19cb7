import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitingForApprovalText } from '../../src/services/platforms/platform-messages.js';
import { fakeDiscordBot, fakeDiscordChannelId, startFakeDiscord, type FakeDiscord } from '../helpers/fake-discord.js';
import { slackEventEnvelope, slackSignatureHeaders, startFakeSlack, type FakeSlack } from '../helpers/fake-slack.js';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * A platform message whose tool needs approval: the chat is told what waits,
 * and once the call is approved through the API the rest of the reply is
 * posted to the same chat (Telegram), channel thread (Slack) or channel
 * (Discord). The builtin model calls the tool; every wait is on what the
 * fakes recorded, with a bound generous enough for a loaded machine.
 */
const telegramToken = '424250:telegram-approval-secret-z9y8';
const slackToken = 'xoxb-approval-secret-3b8c';
const signingSecret = 'slack-signing-approval-5e2f';
const discordToken = 'discord-approval-secret-8d4a';
const within = 60_000;
const approvalPlugin = [{ name: 'math', approval: { tools: ['calculate'] } }];

let t: TestApp;
let telegram: FakeTelegram;
let slack: FakeSlack;
let discord: FakeDiscord;
before(async () => {
  telegram = await startFakeTelegram();
  telegram.addBot(telegramToken);
  slack = await startFakeSlack({ botToken: slackToken });
  discord = await startFakeDiscord({ botToken: discordToken });
  t = await createTestApp({
    platforms: true,
    env: {
      AGENTD_TELEGRAM_API_URL: telegram.apiRoot,
      AGENTD_SLACK_API_URL: slack.apiUrl,
      AGENTD_DISCORD_API_URL: discord.apiUrl,
    },
  });
});
after(async () => {
  await t?.close();
  await telegram?.close();
  await slack?.close();
  await discord?.close();
});

/** Approves the agent's one pending call (checking whose message it paused) and returns the resumed run's id. */
async function approvePending(agentId: string, userId: string): Promise<string> {
  const pending = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/approvals?status=pending` });
  const [approval] = pending.json().data;
  assert.equal(approval.name, 'calculate');
  assert.equal(approval.userId, userId);
  const decided = await t.inject({
    method: 'POST',
    url: `/v1/agents/${agentId}/approvals/${approval.id}`,
    payload: { decision: 'approve' },
  });
  assert.equal(decided.statusCode, 200, decided.body);
  return decided.json().resumedRunId;
}

async function assertResumedRun(agentId: string, runId: string, posted: string) {
  const run = (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/runs/${runId}` })).json();
  assert.equal(run.trigger, 'approval');
  assert.equal(run.reply.text.trim(), posted.trim());
  assert.match(posted, /42/);
}

describe('approvals on platforms', () => {
  it('Telegram: tells the chat what waits, and posts the answer there once approved', async () => {
    const agent = await t.newAgent({
      platforms: [{ type: 'telegram', secrets: { botToken: telegramToken } }],
      plugins: approvalPlugin,
    });
    await eventually(async () => (telegram.isPolling(telegramToken) ? true : null), 'a long poll', within);
    // A kept-alive connection the Bot API let go of just before a send: the call is sent again, not lost.
    telegram.resetNext('sendMessage', 1);
    telegram.injectMessage(telegramToken, {
      chatId: 7001,
      fromId: 7001,
      text: '/tool calculate {"expression": "6*7"}',
    });
    const paused = await eventually(
      async () => telegram.sentTo(telegramToken, 7001)[0] ?? null,
      'the paused reply',
      within,
    );
    assert.ok(paused.includes(waitingForApprovalText('calculate')), paused);

    const runId = await approvePending(agent.id, 'telegram:7001');
    telegram.resetNext('sendMessage', 1);
    const resumed = await eventually(
      async () => telegram.sentTo(telegramToken, 7001)[1] ?? null,
      'the resumed reply',
      within,
    );
    assert.match(resumed, /calculate returned/);
    await assertResumedRun(agent.id, runId, resumed);
  });

  it('Slack: answers in the mention’s thread, and posts the resumed answer in that thread', async () => {
    const agent = await t.newAgent({
      platforms: [{ type: 'slack', secrets: { botToken: slackToken, signingSecret } }],
      plugins: approvalPlugin,
    });
    const body = JSON.stringify(
      slackEventEnvelope('EvApproval1', {
        type: 'app_mention',
        channel: 'C0APPROVE',
        user: 'U0ALICE',
        text: '<@U0BOT01> /tool calculate {"expression": "6*7"}',
        ts: '1712000000.000100',
      }),
    );
    const response = await t.inject({
      method: 'POST',
      url: `/v1/platforms/slack/${agent.id}/events`,
      headers: slackSignatureHeaders(signingSecret, body),
      payload: body,
    });
    assert.equal(response.statusCode, 200, response.body);
    const inChannel = () => slack.posted.filter((posted) => posted.channel === 'C0APPROVE');
    const paused = await eventually(async () => inChannel()[0] ?? null, 'the paused reply', within);
    assert.equal(paused.thread_ts, '1712000000.000100');
    assert.ok(paused.text.includes(waitingForApprovalText('calculate')), paused.text);

    const runId = await approvePending(agent.id, 'slack:T0TEAM1:U0ALICE');
    const resumed = await eventually(async () => inChannel()[1] ?? null, 'the resumed reply', within);
    assert.equal(resumed.thread_ts, '1712000000.000100', 'in the same thread');
    await assertResumedRun(agent.id, runId, resumed.text);
  });

  it('Discord: replies to the mention, and posts the resumed answer in the same channel', async () => {
    const agent = await t.newAgent({
      platforms: [{ type: 'discord', secrets: { botToken: discordToken } }],
      plugins: approvalPlugin,
    });
    await eventually(async () => (discord.openSockets() > 0 ? true : null), 'the gateway connection', within);
    const alice = { id: '940000000000000001', username: 'alice' };
    const id = discord.dispatchMessage({
      author: alice,
      content: `<@${fakeDiscordBot.id}> /tool calculate {"expression": "6*7"}`,
      mentions: [fakeDiscordBot],
    });
    const paused = await eventually(
      async () => discord.sent.find((sent) => sent.replyTo === id) ?? null,
      'the paused reply',
      within,
    );
    assert.ok(paused.content.includes(waitingForApprovalText('calculate')), paused.content);

    const runId = await approvePending(agent.id, `discord:${alice.id}`);
    const resumed = await eventually(
      async () => discord.sent.find((sent) => sent !== paused && sent.content.includes('calculate returned')) ?? null,
      'the resumed reply',
      within,
    );
    assert.equal(resumed.channelId, fakeDiscordChannelId, 'in the same channel');
    await assertResumedRun(agent.id, runId, resumed.content);
  });
});

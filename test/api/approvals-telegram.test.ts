import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitingForApprovalText } from '../../src/services/platforms/platform-messages.js';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * A Telegram message whose reply pauses for an approval: the chat is told
 * what waits, and once the call is approved through the API the rest of the
 * reply is posted to the same chat (the builtin model calls the tool).
 */
const botToken = '424250:telegram-approval-secret-z9y8';

describe('approvals on Telegram', () => {
  let t: TestApp;
  let telegram: FakeTelegram;
  before(async () => {
    telegram = await startFakeTelegram();
    telegram.addBot(botToken);
    t = await createTestApp({ platforms: true, env: { AGENTD_TELEGRAM_API_URL: telegram.apiRoot } });
  });
  after(async () => {
    await t?.close();
    await telegram?.close();
  });

  it('tells the chat what waits, and posts the answer there once approved', async () => {
    const agent = await t.newAgent({
      platforms: [{ type: 'telegram', secrets: { botToken } }],
      plugins: [{ name: 'math', approval: { tools: ['calculate'] } }],
    });
    await eventually(async () => (telegram.isPolling(botToken) ? true : null), 'a long poll', 15_000);
    telegram.injectMessage(botToken, { chatId: 7001, fromId: 7001, text: '/tool calculate {"expression": "6*7"}' });
    const paused = await eventually(async () => telegram.sentTo(botToken, 7001)[0] ?? null, 'the paused reply', 15_000);
    assert.ok(paused.includes(waitingForApprovalText('calculate')), paused);

    const pending = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/approvals?status=pending` });
    const [approval] = pending.json().data;
    assert.equal(approval.name, 'calculate');
    assert.equal(approval.userId, 'telegram:7001');
    const decided = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/approvals/${approval.id}`,
      payload: { decision: 'approve' },
    });
    assert.equal(decided.statusCode, 200, decided.body);

    const resumed = await eventually(
      async () => telegram.sentTo(botToken, 7001)[1] ?? null,
      'the resumed reply',
      15_000,
    );
    assert.match(resumed, /calculate returned/);
    assert.match(resumed, /42/);
    const run = (
      await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs/${decided.json().resumedRunId}` })
    ).json();
    assert.equal(run.trigger, 'approval');
    assert.equal(run.reply.text.trim(), resumed.trim());
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { telegramPlatform } from '../../src/platforms/telegram/telegram-platform.js';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram-server.js';
import { createTestPlatformContext } from '../helpers/platform-test-context.js';
import { eventually } from '../helpers/wait.js';

/**
 * The Telegram connector on the fake Bot API, where an earlier holder took
 * an update and died before answering it: what the takeover sweep hands
 * over is answered once and marked answered; an update taken while the
 * connector stops mid-answer is given back, not lost. (Giving up an item
 * tried too often, or taken a day ago, is the sweep's:
 * test/integration/platform-pending.test.ts.)
 */
const token = '424250:telegram-pending-secret-k1l2';

function updateFor(updateId: number, chatId: number, text: string, sentAt = Date.now()) {
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: Math.floor(sentAt / 1000),
      chat: { id: chatId, type: 'private' },
      from: { id: chatId, is_bot: false, first_name: 'Test' },
      text,
    },
  };
}

describe('a Telegram update taken and never answered', () => {
  let telegram: FakeTelegram;
  before(async () => {
    telegram = await startFakeTelegram();
    telegram.addBot(token);
  });
  after(async () => {
    await telegram?.close();
  });

  /** Starts the connector, hands it what the sweep took over, waits for its first long poll, and stops it. */
  async function startAndPoll(
    position: number,
    pendingItems: Array<{ itemId: string; pending: string; attempts: number }>,
  ) {
    const test = createTestPlatformContext({ apiBaseUrl: telegram.apiRoot, position, pendingItems });
    const polledBefore = telegram.callsOf('getUpdates', token).length;
    const connection = await telegramPlatform.start({ pollTimeoutSeconds: 1 }, { botToken: token }, test.context);
    await test.handOver();
    await eventually(
      async () => (telegram.callsOf('getUpdates', token).length > polledBefore ? true : null),
      'a long poll',
      10_000,
    );
    test.abort();
    await connection.stop();
    return test;
  }

  it('answers an update taken over, once, and marks it answered', async () => {
    const update = updateFor(77, 501, 'left behind');
    const test = await startAndPoll(77, [{ itemId: '77', pending: JSON.stringify(update), attempts: 1 }]);
    assert.deepEqual(telegram.sentTo(token, 501), ['echo: left behind']);
    assert.equal(test.pendingItems().size, 0, 'answered');
    assert.deepEqual(test.answeredItems(), ['77']);
    assert.ok(!test.log.text().includes(token), 'the token is never logged');
  });

  it('records each update polled before answering it, and gives back one whose answer the stop cut short', async () => {
    const chatId = 504;
    let stop = () => undefined as void;
    const test = createTestPlatformContext({
      apiBaseUrl: telegram.apiRoot,
      answer: async () => {
        stop();
        throw new Error('the connector stopped');
      },
    });
    stop = test.abort;
    const connection = await telegramPlatform.start({ pollTimeoutSeconds: 1 }, { botToken: token }, test.context);
    const updateId = telegram.injectMessage(token, { chatId, fromId: chatId, text: 'cut short' });
    await eventually(async () => (test.pendingItems().has(String(updateId)) ? true : null), 'the update taken');
    await connection.stop();
    assert.deepEqual(telegram.sentTo(token, chatId), []);
    assert.equal(test.pendingItems().get(String(updateId))?.attempts, 1, 'kept unanswered, its claim given back');
    assert.deepEqual(test.answeredItems(), []);
  });
});

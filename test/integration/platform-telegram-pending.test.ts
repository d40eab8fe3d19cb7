import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { telegramPlatform } from '../../src/platforms/telegram/telegram-platform.js';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram-server.js';
import { createTestPlatformContext } from '../helpers/platform-test-context.js';
import { eventually } from '../helpers/wait.js';

/**
 * The Telegram connector on the fake Bot API, started where an earlier
 * holder took an update and died before answering it: the update is answered
 * first, once, and settled; one that has already been tried three times (it
 * may be what kills its holders) is given up with a warning.
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

  /** Starts the connector, waits for its first long poll (it answers what is pending before), and stops it. */
  async function startAndPoll(pending: { position: number; pending: string; attempts: number }) {
    const test = createTestPlatformContext({ apiBaseUrl: telegram.apiRoot, pending });
    const polledBefore = telegram.callsOf('getUpdates', token).length;
    const connection = await telegramPlatform.start({ pollTimeoutSeconds: 1 }, { botToken: token }, test.context);
    await eventually(
      async () => (telegram.callsOf('getUpdates', token).length > polledBefore ? true : null),
      'a long poll',
      10_000,
    );
    test.abort();
    await connection.stop();
    return test;
  }

  it('answers it before polling, once, and settles it', async () => {
    const update = updateFor(77, 501, 'left behind');
    const test = await startAndPoll({ position: 77, pending: JSON.stringify(update), attempts: 1 });
    assert.deepEqual(telegram.sentTo(token, 501), ['echo: left behind']);
    assert.equal(test.pending(), null, 'settled once answered');
    assert.ok(
      test.log.entries().some((entry) => entry.msg === 'telegram update taken before a takeover, answered now'),
    );
  });

  it('gives it up after three attempts', async () => {
    const update = updateFor(78, 502, 'fatal, perhaps');
    const test = await startAndPoll({ position: 78, pending: JSON.stringify(update), attempts: 3 });
    assert.deepEqual(telegram.sentTo(token, 502), [], 'not answered a fourth time');
    assert.equal(test.pending(), null, 'given up');
    const warning = test.log
      .entries()
      .find((entry) => entry.msg === 'telegram update given up after repeated takeovers');
    assert.equal(warning?.updateId, 78);
    assert.equal(warning?.attempts, 4);
    assert.ok(!test.log.text().includes(token), 'the token is never logged');
  });

  it('gives it up when it was taken more than a day ago', async () => {
    const update = updateFor(79, 503, 'yesterday’s news', Date.now() - 25 * 60 * 60 * 1000);
    const test = await startAndPoll({ position: 79, pending: JSON.stringify(update), attempts: 1 });
    assert.deepEqual(telegram.sentTo(token, 503), []);
    assert.equal(test.pending(), null);
    assert.ok(test.log.entries().some((entry) => entry.msg === 'telegram update given up: taken more than a day ago'));
  });
});

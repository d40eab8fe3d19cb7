import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inboundFromUpdate, splitForTelegram } from '../../src/platforms/telegram/telegram-messages.js';

describe('Telegram messages', () => {
  it('keeps a reply within the limit whole', () => {
    assert.deepEqual(splitForTelegram('short'), ['short']);
    assert.deepEqual(splitForTelegram('x'.repeat(4096)), ['x'.repeat(4096)]);
  });

  it('splits a long reply into parts of at most 4096, at a space, losing nothing but the space', () => {
    const words = Array.from({ length: 2000 }, (_, index) => `word${index}`).join(' ');
    const parts = splitForTelegram(words);
    assert.ok(parts.length > 1);
    for (const part of parts) assert.ok(part.length <= 4096);
    for (const part of parts.slice(0, -1)) assert.ok(part.length > 2048, 'cut near the limit, not early');
    assert.equal(parts.join(' '), words);
  });

  it('cuts a text without spaces at the limit, never inside a surrogate pair', () => {
    const text = `${'a'.repeat(4095)}😀${'b'.repeat(10)}`;
    const parts = splitForTelegram(text);
    assert.equal(parts[0], 'a'.repeat(4095));
    assert.equal(parts.join(''), text);
    assert.ok(splitForTelegram('c'.repeat(9000)).every((part) => part.length <= 4096));
  });

  it('maps private chats to the user and groups to a room with the sender', () => {
    const base = { message_id: 1, text: 'hi' };
    assert.deepEqual(
      inboundFromUpdate({ update_id: 1, message: { ...base, chat: { id: 5, type: 'private' }, from: { id: 5 } } }),
      {
        chatId: 5,
        message: { userId: 'telegram:5', content: 'hi' },
      },
    );
    assert.deepEqual(
      inboundFromUpdate({ update_id: 2, message: { ...base, chat: { id: -9, type: 'supergroup' }, from: { id: 5 } } }),
      { chatId: -9, message: { userId: 'telegram:5', roomId: 'telegram:-9', content: 'hi' } },
    );
    assert.equal(inboundFromUpdate({ update_id: 3 }), null, 'not a message');
    assert.equal(
      inboundFromUpdate({ update_id: 4, message: { message_id: 1, chat: { id: 5, type: 'private' } } }),
      null,
      'no text',
    );
    assert.equal(
      inboundFromUpdate({
        update_id: 5,
        message: { ...base, chat: { id: 5, type: 'group' }, from: { id: 6, is_bot: true } },
      }),
      null,
      'from a bot',
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notificationContent, replyRefsFor } from '../../src/platforms/bluesky/index.js';
import { graphemeLength, splitForBluesky } from '../../src/platforms/bluesky/text.js';
import { takeInOrder } from '../../src/platforms/in-order.js';
import { byIdAscending, inboundFromMention, mentionContent } from '../../src/platforms/x/mentions.js';
import { splitForX, weightedLength } from '../../src/platforms/x/text.js';

describe('X text', () => {
  it('keeps a post that fits whole, counting as X does', () => {
    assert.deepEqual(splitForX('  short answer  '), ['short answer']);
    // 140 CJK characters weigh 280: one post; one more does not fit.
    assert.deepEqual(splitForX('語'.repeat(140)).length, 1);
    assert.equal(splitForX('語'.repeat(141)).length, 2);
    // A link weighs 23 whatever its length.
    const link = `see https://example.com/${'a'.repeat(400)}`;
    assert.deepEqual(splitForX(link), [link]);
  });

  it('splits a long answer between words into a numbered thread, each part within 280', () => {
    const text = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ');
    const parts = splitForX(text);
    assert.ok(parts.length > 1);
    parts.forEach((part, index) => {
      assert.ok(weightedLength(part) <= 280);
      assert.ok(part.endsWith(` (${index + 1}/${parts.length})`));
    });
    const words = parts.map((part) => part.replace(/ \(\d+\/\d+\)$/, '')).join(' ');
    assert.equal(words, text, 'nothing lost, no word cut');
  });

  it('numbers ten parts and more with the width they need', () => {
    const parts = splitForX('emoji😀 '.repeat(600));
    assert.ok(parts.length >= 10);
    assert.ok(parts.every((part) => weightedLength(part) <= 280));
    assert.ok(parts.at(-1)!.endsWith(` (${parts.length}/${parts.length})`));
  });

  it('reads a mention without its leading @handles, keyed by author and thread', () => {
    assert.equal(mentionContent('@agent @other what is gas?'), 'what is gas?');
    assert.deepEqual(inboundFromMention({ id: '5', text: '@agent hi', author_id: '7', conversation_id: '3' }), {
      userId: 'x:7',
      roomId: 'x:3',
      content: 'hi',
    });
    assert.equal(inboundFromMention({ id: '5', text: '@agent ', author_id: '7' }), null);
  });

  it('orders 64-bit ids exactly', () => {
    const ids = ['1800000000000000002', '1800000000000000001', '999'];
    assert.deepEqual(
      ids
        .map((id) => ({ id, text: '' }))
        .sort(byIdAscending)
        .map((post) => post.id),
      ['999', '1800000000000000001', '1800000000000000002'],
    );
  });
});

describe('Bluesky text and references', () => {
  it('splits at 300 graphemes, never inside one', () => {
    const family = '👩‍👩‍👧';
    assert.equal(graphemeLength(family), 1);
    const parts = splitForBluesky(`${family} `.repeat(400));
    assert.ok(parts.length > 1);
    parts.forEach((part, index) => {
      assert.ok(graphemeLength(part) <= 300);
      assert.ok(part.endsWith(` (${index + 1}/${parts.length})`));
      assert.ok(!part.includes('\u200d ') && !part.startsWith('\u200d'), 'no cut family');
    });
  });

  it('answers under the thread’s root and the post itself', () => {
    const post = { uri: 'at://did:plc:a/app.bsky.feed.post/2', cid: 'c2' };
    assert.deepEqual(replyRefsFor(post, {}), { root: post, parent: post });
    const root = { uri: 'at://did:plc:b/app.bsky.feed.post/1', cid: 'c1' };
    assert.deepEqual(replyRefsFor(post, { reply: { root, parent: root } }), { root, parent: post });
    assert.equal(notificationContent('@agent.bsky.social @x.test hello'), 'hello');
  });
});

describe('takeInOrder', () => {
  it('takes strictly in order while handling concurrently', async () => {
    const taken: number[] = [];
    const handled: number[] = [];
    let inFlight = 0;
    let most = 0;
    await takeInOrder(
      [1, 2, 3, 4, 5, 6, 7, 8],
      3,
      new AbortController().signal,
      async (item) => {
        // Later takes answer sooner: the order must hold anyway.
        await new Promise((resolve) => setTimeout(resolve, 9 - item));
        taken.push(item);
        return item !== 4;
      },
      async (item) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        handled.push(item);
        inFlight -= 1;
      },
    );
    assert.deepEqual(taken, [1, 2, 3, 4, 5, 6, 7, 8]);
    assert.deepEqual(handled.sort(), [1, 2, 3, 5, 6, 7, 8], 'what was not taken is not handled');
    assert.ok(most > 1 && most <= 3, `${most} at a time`);
  });

  it('handles the items of one thread one after the other, in order, and other threads meanwhile', async () => {
    const items = [
      { id: 1, thread: 'a' },
      { id: 2, thread: 'a' },
      { id: 3, thread: 'b' },
      { id: 4, thread: 'a' },
      { id: 5, thread: 'c' },
      { id: 6, thread: 'b' },
    ];
    const events: string[] = [];
    let inFlight = 0;
    let most = 0;
    await takeInOrder(
      items,
      4,
      new AbortController().signal,
      async (item) => item.id !== 2,
      async (item) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        events.push(`start ${item.id}`);
        // Earlier items take longer: without the thread's order, later ones would finish first.
        await new Promise((resolve) => setTimeout(resolve, 30 - item.id * 4));
        events.push(`end ${item.id}`);
        inFlight -= 1;
      },
      (item) => item.thread,
    );
    const handled = (id: number) => events.indexOf(`start ${id}`) >= 0;
    assert.ok(!handled(2), 'what was not taken is not handled');
    assert.ok(events.indexOf('end 1') < events.indexOf('start 4'), 'thread a: 1 is answered before 4');
    assert.ok(events.indexOf('end 3') < events.indexOf('start 6'), 'thread b: 3 is answered before 6');
    assert.ok(events.indexOf('start 3') < events.indexOf('end 1'), 'thread b does not wait for thread a');
    assert.ok(most > 1 && most <= 4, `${most} at a time`);
    assert.equal(events.length, 10, 'each taken item handled once');
  });
});

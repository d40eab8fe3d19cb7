import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decideSlackEvent,
  escapeSlackText,
  unescapeSlackText,
  withoutBotMention,
} from '../../src/platforms/slack/events.js';

const envelope = (event: Record<string, unknown>) => ({
  type: 'event_callback',
  team_id: 'T1',
  event_id: 'Ev1',
  authorizations: [{ user_id: 'UBOT' }],
  event,
});

describe('deciding what a Slack event asks for', () => {
  it('a mention in a channel: a room conversation, answered in a thread under the message', () => {
    const decision = decideSlackEvent(
      envelope({ type: 'app_mention', user: 'U1', text: '<@UBOT> hi <@U2>', ts: '10.1', channel: 'C1' }),
      { replyInThread: true },
    );
    assert.deepEqual(decision, {
      kind: 'answer',
      eventId: 'Ev1',
      message: { userId: 'slack:T1:U1', roomId: 'slack:T1:C1', content: 'hi <@U2>', replyTarget: 'C1/10.1' },
      reply: { channel: 'C1', threadTs: '10.1' },
      files: [],
    });
  });

  it('a mention answered in the channel when replyInThread is off, unless it came in a thread', () => {
    const flat = decideSlackEvent(
      envelope({ type: 'app_mention', user: 'U1', text: '<@UBOT> hi', ts: '10.1', channel: 'C1' }),
      { replyInThread: false },
    );
    assert.equal(flat.kind === 'answer' && flat.reply.threadTs, undefined);
    const threaded = decideSlackEvent(
      envelope({ type: 'app_mention', user: 'U1', text: '<@UBOT> hi', ts: '10.2', thread_ts: '9.0', channel: 'C1' }),
      { replyInThread: false },
    );
    assert.equal(threaded.kind === 'answer' && threaded.reply.threadTs, '9.0');
  });

  it('a direct message: a private conversation, no room', () => {
    const decision = decideSlackEvent(
      envelope({ type: 'message', channel_type: 'im', user: 'U1', text: 'hello', ts: '11.1', channel: 'D1' }),
      { replyInThread: true },
    );
    assert.equal(decision.kind, 'answer');
    assert.deepEqual(decision.kind === 'answer' && decision.message, {
      userId: 'slack:T1:U1',
      content: 'hello',
      replyTarget: 'D1',
    });
  });

  it('challenges, ignored events and malformed envelopes', () => {
    assert.deepEqual(decideSlackEvent({ type: 'url_verification', challenge: 'c1' }, { replyInThread: true }), {
      kind: 'challenge',
      challenge: 'c1',
    });
    assert.equal(decideSlackEvent({ type: 'url_verification' }, { replyInThread: true }).kind, 'invalid');
    assert.equal(decideSlackEvent(null, { replyInThread: true }).kind, 'invalid');
    assert.deepEqual(decideSlackEvent({ type: 'event_callback', event: {} }, { replyInThread: true }), {
      kind: 'invalid',
      path: '/event_id',
      detail: 'An event_callback must carry event_id and event.',
    });
    assert.equal(decideSlackEvent({ type: 'app_rate_limited' }, { replyInThread: true }).kind, 'ignore');
    for (const event of [
      { type: 'message', channel_type: 'im', user: 'U1', text: 'x', ts: '1', channel: 'D1', bot_id: 'B1' },
      { type: 'message', channel_type: 'im', subtype: 'message_deleted', ts: '1', channel: 'D1' },
      { type: 'message', channel_type: 'group', user: 'U1', text: 'x', ts: '1', channel: 'G1' },
      { type: 'app_mention', user: 'U1', text: ' <@UBOT> ', ts: '1', channel: 'C1' },
      { type: 'app_mention', text: 'no user', ts: '1', channel: 'C1' },
    ]) {
      assert.equal(decideSlackEvent(envelope(event), { replyInThread: true }).kind, 'ignore', JSON.stringify(event));
    }
  });

  it("reads Slack's escaped characters as typed, and escapes the reply so it cannot ping anyone", () => {
    const decision = decideSlackEvent(
      envelope({
        type: 'app_mention',
        user: 'U1',
        text: '<@UBOT> is 1 &lt; 2 &amp;&amp; 3 &gt; 2?',
        ts: '1',
        channel: 'C1',
      }),
      { replyInThread: true },
    );
    assert.equal(decision.kind === 'answer' && decision.message.content, 'is 1 < 2 && 3 > 2?');
    assert.equal(escapeSlackText('<!channel> a & b'), '&lt;!channel&gt; a &amp; b');
    assert.equal(unescapeSlackText(escapeSlackText('x < y & z > <@U1>')), 'x < y & z > <@U1>');
  });

  it('strips the leading mention when the bot id is not known', () => {
    assert.equal(withoutBotMention('<@U9|bot> hello <@U2>', undefined), 'hello <@U2>');
  });
});

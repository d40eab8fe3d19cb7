import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { blueskyPlatform } from '../../src/platforms/bluesky/index.js';
import type { InboundMessage, InboundReply } from '../../src/platforms/platform.js';
import { xPlatform } from '../../src/platforms/x/index.js';
import { startFakeBluesky, type FakeBluesky, type StoredPost } from '../helpers/fake-bluesky.js';
import { startFakeX, type FakeX } from '../helpers/fake-x-server.js';
import { createTestPlatformContext, type TestPlatformContext } from '../helpers/platform-test-context.js';
import { eventually } from '../helpers/wait.js';

/**
 * The X and Bluesky connectors on their fakes, where an earlier poller took
 * mentions and stopped (or died) before answering them: each taken mention
 * is recorded with its take until answered, and what the takeover sweep
 * hands over is answered once, in take order (a thread's in order), and
 * marked answered. (Giving up an item tried too often, or taken a day ago,
 * is the sweep's: test/integration/platform-pending.test.ts.)
 */
type Pending = Array<{ itemId: string; pending: string; attempts: number; takenAt?: number }>;

const author = { id: '1700000000000000901' };
let accounts = 0;

/** An answer that stops the connector while the model works: what a poller sees of its shutdown mid-answer. */
function stopWhileAnswering(stop: () => void) {
  return async (): Promise<InboundReply> => {
    stop();
    throw new Error('the connector stopped');
  };
}

describe('X mentions taken and never answered', () => {
  let x: FakeX;
  before(async () => {
    x = await startFakeX();
  });
  after(async () => {
    await x?.close();
  });

  /** An account of its own per test: mentions of one never reach another's poller. */
  function newAccount() {
    accounts += 1;
    const suffix = String(accounts).padStart(3, '0');
    const account = { id: `1500000000000000${suffix}`, username: `pending_${suffix}` };
    const keys = {
      appKey: `x-app-key-pending-${suffix}`,
      appSecret: `x-app-secret-pending-${suffix}-4e1a`,
      accessToken: `${account.id}-x-access-token`,
      accessSecret: `x-access-secret-pending-${suffix}-9b2c`,
    };
    x.addAccount({ ...account, oauth1: keys });
    return { account, keys };
  }

  /** The mention as the connector stores it with its take. */
  function taken(id: string) {
    const post = x.post(id)!;
    return JSON.stringify({ id, text: post.text, author_id: post.authorId, conversation_id: post.conversationId });
  }

  async function start(
    keys: Record<string, string>,
    options: { pendingItems?: Pending; answer?: (message: InboundMessage) => Promise<InboundReply> } = {},
  ) {
    const test = createTestPlatformContext({ apiBaseUrl: x.apiUrl, ...options });
    const connection = await xPlatform.start(
      { answerMentions: 'everyone', dailyPostCap: 100, pollIntervalSeconds: 1 },
      keys,
      test.context,
    );
    return { test, connection };
  }

  /** Starts the connector, hands it what the sweep took over, waits for a read of the mentions, stops it. */
  async function startAndRead(keys: Record<string, string>, accountId: string, pendingItems: Pending) {
    const readBefore = x.callsTo(/mentions$/, accountId).length;
    const { test, connection } = await start(keys, { pendingItems });
    await test.handOver();
    await eventually(
      async () => (x.callsTo(/mentions$/, accountId).length > readBefore ? true : null),
      'a read of the mentions',
      10_000,
    );
    test.abort();
    await connection.stop();
    return test;
  }

  const repliesBy = (accountId: string) => x.postsBy(accountId).map((post) => post.inReplyTo);

  it('answers what is taken over, once each, a thread’s in order, and marks it answered', async () => {
    const { account, keys } = newAccount();
    const first = x.mention(account.id, { authorId: author.id, text: `@${account.username} first of a thread` });
    const second = x.mention(account.id, {
      authorId: author.id,
      text: `@${account.username} second of it`,
      inReplyTo: first,
    });
    const other = x.mention(account.id, { authorId: author.id, text: `@${account.username} another thread` });
    // Handed over in the order they were taken, as the sweep does.
    const now = Date.now();
    const test = await startAndRead(keys, account.id, [
      { itemId: other, pending: taken(other), attempts: 1, takenAt: now - 1000 },
      { itemId: second, pending: taken(second), attempts: 1, takenAt: now - 2000 },
      { itemId: first, pending: taken(first), attempts: 2, takenAt: now - 3000 },
    ]);
    const replies = repliesBy(account.id);
    assert.deepEqual([...replies].sort(), [first, second, other].sort(), 'each answered once');
    assert.ok(replies.indexOf(first) < replies.indexOf(second), 'a thread’s first mention is answered first');
    assert.equal(test.pendingItems().size, 0, 'marked answered');
    assert.deepEqual(test.answeredItems(), [first, second, other]);
    assert.ok(!test.log.text().includes(keys.accessSecret), 'no secret is logged');
  });

  it('keeps a mention taken while the connector stops mid-answer, and the next start answers it', async () => {
    const { account, keys } = newAccount();
    let stop = () => undefined as void;
    const { test, connection } = await start(keys, { answer: stopWhileAnswering(() => stop()) });
    stop = test.abort;
    // The first read sets where the account's mentions start: later ones are news.
    await eventually(async () => ((await test.context.positions.last()) !== null ? true : null), 'a first read');
    const mention = x.mention(account.id, { authorId: author.id, text: `@${account.username} interrupted` });
    await eventually(async () => (test.pendingItems().has(mention) ? true : null), 'the mention taken', 10_000);
    await connection.stop();
    assert.deepEqual(repliesBy(account.id), []);
    assert.deepEqual(test.pendingItems().get(mention), { pending: taken(mention), attempts: 1 }, 'still pending');

    const next = await startAndRead(keys, account.id, [{ itemId: mention, pending: taken(mention), attempts: 1 }]);
    assert.deepEqual(repliesBy(account.id), [mention]);
    assert.equal(next.pendingItems().size, 0);
  });
});

describe('Bluesky notifications taken and never answered', () => {
  let sky: FakeBluesky;
  const poster = { did: 'did:plc:carol4carol4carol4c', handle: 'carol.test' };
  before(async () => {
    sky = await startFakeBluesky();
    sky.addAccount({ ...poster, appPassword: 'carol-pass-unused' });
  });
  after(async () => {
    await sky?.close();
  });

  function newAccount() {
    accounts += 1;
    const suffix = String(accounts).padStart(3, '0');
    const account = { did: `did:plc:pending4sky4${suffix}aaaaa`, handle: `pending${suffix}.test` };
    const appPassword = `bsky-pending-pass-${suffix}-7c3d`;
    sky.addAccount({ ...account, appPassword });
    return { account, secrets: { identifier: account.handle, appPassword } };
  }

  /** The notification as the connector stores it with its take. */
  const taken = (post: StoredPost) =>
    JSON.stringify({
      uri: post.uri,
      cid: post.cid,
      author: { did: poster.did, handle: poster.handle },
      reason: 'mention',
      record: post.record,
      indexedAt: post.indexedAt,
    });

  async function start(
    secrets: Record<string, string>,
    options: { pendingItems?: Pending; answer?: (message: InboundMessage) => Promise<InboundReply> } = {},
  ) {
    const test = createTestPlatformContext({ apiBaseUrl: sky.serviceUrl, ...options });
    const connection = await blueskyPlatform.start(
      { answerReplies: true, pollIntervalSeconds: 1 },
      secrets,
      test.context,
    );
    return { test, connection };
  }

  async function startAndRead(secrets: Record<string, string>, did: string, pendingItems: Pending) {
    const readBefore = sky.callsTo('app.bsky.notification.listNotifications', did).length;
    const { test, connection } = await start(secrets, { pendingItems });
    await test.handOver();
    await eventually(
      async () => (sky.callsTo('app.bsky.notification.listNotifications', did).length > readBefore ? true : null),
      'a read of the notifications',
      10_000,
    );
    test.abort();
    await connection.stop();
    return test;
  }

  const repliesBy = (did: string) => sky.postsBy(did).map((post) => post.record.reply?.parent.uri);

  it('answers what is taken over, once, in its thread, and marks it answered', async () => {
    const { account, secrets } = newAccount();
    const mention = sky.mention(account.did, poster, `@${account.handle} left behind`);
    const test = await startAndRead(secrets, account.did, [
      { itemId: mention.uri, pending: taken(mention), attempts: 1 },
    ]);
    assert.deepEqual(repliesBy(account.did), [mention.uri]);
    assert.deepEqual(sky.shapeProblems, [], 'with the root and parent references of the thread');
    assert.equal(test.pendingItems().size, 0);
    assert.deepEqual(test.answeredItems(), [mention.uri]);
  });

  it('keeps a notification taken while the connector stops mid-answer, and the next start answers it', async () => {
    const { account, secrets } = newAccount();
    let stop = () => undefined as void;
    const { test, connection } = await start(secrets, { answer: stopWhileAnswering(() => stop()) });
    stop = test.abort;
    // The first read sets where the account's notifications start: later ones are news.
    await eventually(async () => ((await test.context.positions.last()) !== null ? true : null), 'a first read');
    const mention = sky.mention(account.did, poster, `@${account.handle} interrupted`);
    await eventually(
      async () => (test.pendingItems().has(mention.uri) ? true : null),
      'the notification taken',
      10_000,
    );
    await connection.stop();
    assert.deepEqual(repliesBy(account.did), []);
    const kept = test.pendingItems().get(mention.uri);
    assert.equal(kept?.attempts, 1, 'still pending');

    const next = await startAndRead(secrets, account.did, [
      { itemId: mention.uri, pending: kept!.pending, attempts: 1 },
    ]);
    assert.deepEqual(repliesBy(account.did), [mention.uri]);
    assert.equal(next.pendingItems().size, 0);
  });
});

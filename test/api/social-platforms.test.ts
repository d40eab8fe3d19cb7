import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeBluesky, type FakeBluesky } from '../helpers/fake-bluesky.js';
import { startFakeX, type FakeX } from '../helpers/fake-x-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';
import { weightedLength } from '../../src/platforms/x/text.js';
import { graphemeLength } from '../../src/platforms/bluesky/text.js';

/**
 * The x and bluesky connectors in a test app, against a fake X API v2 and a
 * fake Bluesky PDS on loopback, answering with the builtin model.
 */
const agentX = { id: '1500000000000000001', username: 'agentd_bot' };
const xKeys = {
  appKey: 'x-app-key-1',
  appSecret: 'x-app-secret-7f3a91',
  accessToken: '1500000000000000001-x-access-token',
  accessSecret: 'x-access-secret-5c2e84',
};
const wrongKeys = { ...xKeys, accessSecret: 'x-wrong-secret-0b7d12' };
const followingX = { id: '1600000000000000002', username: 'follower', token: 'x-user-token-9d41b6' };
const agentSky = { did: 'did:plc:agentd4bot4sky4test', handle: 'agentd.test', appPassword: 'bsky-app-pass-4k2m-9x7q' };
const alice = { did: 'did:plc:alice4alice4alice4', handle: 'alice.test' };
const secrets = [
  xKeys.appSecret,
  xKeys.accessSecret,
  wrongKeys.accessSecret,
  followingX.token,
  agentSky.appPassword,
  'bsky-wrong-pass-3j8n',
];

function assertNoSecret(text: string) {
  for (const secret of secrets) assert.ok(!text.includes(secret), 'a secret appears in a response');
}

async function report(t: TestApp, agentId: string, type: string) {
  const response = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/platforms` });
  assert.equal(response.statusCode, 200, response.body);
  assertNoSecret(response.body);
  return (response.json().data as Array<Record<string, any>>).find((entry) => entry.type === type)!;
}

const running = (t: TestApp, agentId: string, type: string) =>
  eventually(async () => ((await report(t, agentId, type)).state === 'running' ? true : null), `${type} running`);

/** Absence is observed over a window: a few poll intervals. */
const quietFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function trail(t: TestApp, agentId: string) {
  const response = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/events?limit=100` });
  assertNoSecret(response.body);
  return response.json().data as Array<{ type: string; data: Record<string, any> }>;
}

describe('social platforms: X', () => {
  let t: TestApp;
  let x: FakeX;

  before(async () => {
    x = await startFakeX();
    x.addAccount({ id: agentX.id, username: agentX.username, oauth1: xKeys, following: [followingX.id] });
    x.addAccount({ id: followingX.id, username: followingX.username, userAccessToken: followingX.token });
    t = await createTestApp({
      platforms: true,
      env: { AGENTD_X_API_URL: x.apiUrl, AGENTD_PLATFORM_CHANGE_POLL_MS: '100', AGENTD_PLATFORM_RECONCILE_MS: '5000' },
    });
  });
  after(async () => {
    await t?.close();
    await x?.close();
  });

  it('lists x and bluesky with their schemas', async () => {
    const response = await t.inject({ method: 'GET', url: '/v1/platforms' });
    const byType = new Map(response.json().data.map((entry: any) => [entry.type, entry]));
    const xType = byType.get('x') as any;
    assert.equal(xType.settingsSchema.properties.answerMentions.default, 'everyone');
    assert.ok(xType.secretsSchema.properties.accessSecret && xType.secretsSchema.properties.userAccessToken);
    const bluesky = byType.get('bluesky') as any;
    assert.ok(bluesky.secretsSchema.properties.appPassword);
    assert.equal(bluesky.settingsSchema.properties.pollIntervalSeconds.default, 15);
  });

  it('answers a mention once, as a signed reply in its thread, and nothing twice across a stop and start', async () => {
    const agent = await t.newAgent({
      platforms: [{ type: 'x', settings: { pollIntervalSeconds: 1 }, secrets: xKeys }],
    });
    await running(t, agent.id, 'x');
    await eventually(async () => (x.callsTo(/mentions$/, agentX.id).length >= 2 ? true : null), 'polling');
    const mention = x.mention(agentX.id, { authorId: '1700000000000000003', text: `@${agentX.username} what is gas?` });
    const reply = await eventually(async () => x.postsBy(agentX.id)[0] ?? null, 'the reply');
    assert.equal(reply.inReplyTo, mention, 'a reply to the mention, by its 64-bit id');
    assert.equal(reply.conversationId, x.post(mention)!.conversationId, 'in the mention’s thread');
    assert.match(reply.text, /You said: “what is gas\?”/, 'the @handles are not part of what the model reads');
    await eventually(
      async () => (x.callsTo(/mentions$/, agentX.id).some((call) => call.query.since_id === mention) ? true : null),
      'a read after the mention, by the since_id stored',
    );
    assert.ok(
      x.calls.every((call) => call.auth === 'oauth1'),
      'every request carried a valid OAuth 1.0a signature',
    );

    // Stopped, a mention arrives; started again, it is answered and the first is not answered again.
    const paused = await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'inactive' } });
    assert.equal(paused.statusCode, 200);
    await eventually(async () => ((await report(t, agent.id, 'x')).state === 'stopped' ? true : null), 'stopped');
    const second = x.mention(agentX.id, { authorId: '1700000000000000003', text: `@${agentX.username} and fees?` });
    await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'active' } });
    await eventually(async () => (x.postsBy(agentX.id).length >= 2 ? true : null), 'the second reply');
    await quietFor(2_500);
    // An answer may be a thread: its first part is the one that replies to someone else.
    const own = new Set(x.postsBy(agentX.id).map((post) => post.id));
    const answers = x.postsBy(agentX.id).filter((post) => !own.has(post.inReplyTo ?? ''));
    assert.deepEqual(
      answers.map((post) => post.inReplyTo),
      [mention, second],
      'each mention answered exactly once',
    );

    const history = await t.inject({
      method: 'GET',
      url: `/v1/agents/${agent.id}/messages?roomId=${encodeURIComponent(`x:${x.post(mention)!.conversationId}`)}`,
    });
    assert.equal(history.json().data.length, 2, 'the thread is the conversation');
    assert.equal(history.json().data[0].userId, 'x:1700000000000000003', 'the author is the speaker');
    const events = await trail(t, agent.id);
    assert.ok(events.some((event) => event.type === 'connector.received' && event.data.postId === mention));
    assert.ok(events.some((event) => event.type === 'connector.posted' && event.data.inReplyTo === mention));
    const metrics = await t.inject({ method: 'GET', url: '/metrics' });
    assert.match(metrics.body, /agentd_platform_posts_total\{platform="x",direction="posted"\} [1-9]/);
  });

  it('splits a long answer into a numbered thread within X’s weighted length', async () => {
    const user = { id: '1700000000000000004' };
    const agent = await t.newAgent({
      platforms: [{ type: 'x', settings: { pollIntervalSeconds: 1 }, secrets: { userAccessToken: followingX.token } }],
    });
    await running(t, agent.id, 'x');
    await eventually(async () => (x.callsTo(/mentions$/, followingX.id).length >= 2 ? true : null), 'polling');
    // CJK characters weigh 2: this is about 500 weighted characters, well past 280.
    const text = `@${followingX.username} ${'日本語のテキスト '.repeat(25)}`;
    const mention = x.mention(followingX.id, { authorId: user.id, text });
    const thread = await eventually(async () => {
      const posts = x.postsBy(followingX.id);
      const last = posts.at(-1);
      return last && /\((\d+)\/\1\)$/.test(last.text) ? posts : null;
    }, 'the whole thread');
    assert.ok(thread.length >= 2);
    thread.forEach((post, index) => {
      assert.ok(weightedLength(post.text) <= 280, `part ${index + 1} is ${weightedLength(post.text)} weighted`);
      assert.ok(post.text.endsWith(` (${index + 1}/${thread.length})`));
      assert.equal(post.inReplyTo, index === 0 ? mention : thread[index - 1]!.id, 'each part answers the previous');
    });
    assert.ok(
      x.callsTo(/./, followingX.id).every((call) => call.auth === 'bearer'),
      'the OAuth 2.0 user token',
    );
  });

  it('answers only the accounts it follows with answerMentions following', async () => {
    const other = { id: '1600000000000000009', username: 'second', token: 'x-user-token-second' };
    x.addAccount({
      id: other.id,
      username: other.username,
      userAccessToken: other.token,
      following: ['1700000000000000010'],
    });
    const agent = await t.newAgent({
      platforms: [
        {
          type: 'x',
          settings: { pollIntervalSeconds: 1, answerMentions: 'following' },
          secrets: { userAccessToken: other.token },
        },
      ],
    });
    await running(t, agent.id, 'x');
    await eventually(async () => (x.callsTo(/mentions$/, other.id).length >= 2 ? true : null), 'polling');
    const stranger = x.mention(other.id, { authorId: '1700000000000000011', text: '@second hi' });
    const friend = x.mention(other.id, { authorId: '1700000000000000010', text: '@second hi' });
    await eventually(async () => (x.postsBy(other.id).length > 0 ? true : null), 'a reply');
    await quietFor(1_500);
    assert.deepEqual(
      x.postsBy(other.id).map((post) => post.inReplyTo),
      [friend],
      `the followed account is answered, not ${stranger}`,
    );
  });

  it('waits until the reset X names after a 429, without a request before it', async () => {
    const limited = { id: '1600000000000000020', username: 'limited', token: 'x-user-token-limited' };
    x.addAccount({ id: limited.id, username: limited.username, userAccessToken: limited.token });
    const agent = await t.newAgent({
      platforms: [{ type: 'x', settings: { pollIntervalSeconds: 1 }, secrets: { userAccessToken: limited.token } }],
    });
    await running(t, agent.id, 'x');
    await eventually(async () => (x.callsTo(/mentions$/, limited.id).length >= 2 ? true : null), 'polling');
    const resetAt = Math.ceil(Date.now() / 1000) + 3;
    x.failNext(new RegExp(`^/2/users/${limited.id}/mentions$`), 1, 429, { 'x-rate-limit-reset': String(resetAt) });
    const refused = await eventually(async () => {
      const calls = x.callsTo(/mentions$/, limited.id);
      return calls.length >= 3 ? calls.at(-1)! : null;
    }, 'the refused read');
    const mention = x.mention(limited.id, { authorId: '1700000000000000021', text: '@limited still there?' });
    await eventually(async () => (x.postsBy(limited.id).length > 0 ? true : null), 'the reply after the reset', 10_000);
    const next = x.callsTo(/mentions$/, limited.id).find((call) => call.at > refused.at)!;
    assert.ok(next.at >= resetAt * 1000 - 5, `the next read came ${resetAt * 1000 - next.at} ms before the reset`);
    assert.equal(x.postsBy(limited.id)[0]!.inReplyTo, mention);
    assert.equal((await report(t, agent.id, 'x')).state, 'running', 'a rate limit is not an error');
  });

  it('sets the agent to error with X’s reason for wrong credentials, and does not retry', async () => {
    const agent = await t.newAgent({ platforms: [{ type: 'x', secrets: wrongKeys }] });
    const entry = await eventually(async () => {
      const current = await report(t, agent.id, 'x');
      return current.state === 'error' ? current : null;
    }, 'the error');
    assert.match(entry.reason, /X rejected the credentials \(X answered 401: Unauthorized\)/);
    const got = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` });
    assertNoSecret(got.body);
    assert.equal(got.json().status, 'error');
    assert.match(got.json().statusReason, /X rejected the credentials/);
    const refused = () => x.calls.filter((call) => call.auth === 'bad-signature').length;
    const before = refused();
    await quietFor(2_000);
    assert.equal(before, 1, 'one attempt');
    assert.equal(refused(), before, 'no retries');
  });

  it('posts a text now with POST …/platforms/x/posts, within the daily cap', async () => {
    const poster = { id: '1600000000000000030', username: 'poster', token: 'x-user-token-poster' };
    x.addAccount({ id: poster.id, username: poster.username, userAccessToken: poster.token });
    const agent = await t.newAgent({
      platforms: [
        {
          type: 'x',
          settings: { answerMentions: 'none', dailyPostCap: 1 },
          secrets: { userAccessToken: poster.token },
        },
        { type: 'webhook', secrets: { signingSecret: 'whsec_cG9zdGVyLXdlYmhvb2stc2VjcmV0' } },
      ],
    });
    await running(t, agent.id, 'x');
    const posted = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/platforms/x/posts`,
      payload: { text: 'Gas is the fee for computation.', target: 'timeline' },
    });
    assert.equal(posted.statusCode, 200, posted.body);
    assert.equal(posted.json().platform, 'x');
    assert.deepEqual(
      x.postsBy(poster.id).map((post) => [post.text, post.inReplyTo]),
      [['Gas is the fee for computation.', null]],
    );
    const capped = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/platforms/x/posts`,
      payload: { text: 'One more.', target: 'timeline' },
    });
    assert.equal(capped.statusCode, 409, capped.body);
    assert.match(capped.json().detail, /daily post cap \(1\)/);
    assert.equal(x.postsBy(poster.id).length, 1);
    const events = await trail(t, agent.id);
    assert.ok(events.some((event) => event.type === 'connector.posted' && event.data.source === 'post'));

    const webhook = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/platforms/webhook/posts`,
      payload: { text: 'x', target: 'timeline' },
    });
    assert.equal(webhook.statusCode, 400);
    assert.equal(webhook.json().errors[0].path, '/params/type');
    const missing = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/platforms/bluesky/posts`,
      payload: { text: 'x', target: 'timeline' },
    });
    assert.equal(missing.statusCode, 404);
    const badTarget = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/platforms/x/posts`,
      payload: { text: 'x', target: 'somewhere' },
    });
    assert.equal(badTarget.statusCode, 409);
    const stranger = await t.newAccount();
    const foreign = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/platforms/x/posts`,
      payload: { text: 'x', target: 'timeline' },
      as: stranger,
    });
    assert.equal(foreign.statusCode, 404);
  });

  it('answers a post refused for X’s rate limit with 429 and Retry-After', async () => {
    const busy = { id: '1600000000000000040', username: 'busy', token: 'x-user-token-busy' };
    x.addAccount({ id: busy.id, username: busy.username, userAccessToken: busy.token });
    const agent = await t.newAgent({
      platforms: [{ type: 'x', settings: { answerMentions: 'none' }, secrets: { userAccessToken: busy.token } }],
    });
    const resetAt = Math.ceil(Date.now() / 1000) + 600;
    x.failNext(/^\/2\/tweets$/, 3, 429, { 'x-rate-limit-reset': String(resetAt) });
    const task = t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/platforms/x/posts`,
      payload: { text: 'Later.', target: 'timeline' },
    });
    const response = await task;
    assert.equal(response.statusCode, 429, response.body);
    assert.ok(Number(response.headers['retry-after']) > 500);
    assert.equal(x.callsTo(/^\/2\/tweets$/, busy.id).length, 1, 'one request, no waiting inside a request');
  });
});

describe('social platforms: Bluesky', () => {
  let t: TestApp;
  let sky: FakeBluesky;

  before(async () => {
    sky = await startFakeBluesky();
    sky.addAccount(agentSky);
    sky.addAccount({ ...alice, appPassword: 'alice-pass-unused' });
    t = await createTestApp({
      platforms: true,
      env: {
        AGENTD_BLUESKY_SERVICE_URL: sky.serviceUrl,
        AGENTD_PLATFORM_CHANGE_POLL_MS: '100',
        AGENTD_PLATFORM_RECONCILE_MS: '5000',
      },
    });
  });
  after(async () => {
    await t?.close();
    await sky?.close();
  });

  it('answers mentions and replies once, with root and parent references, facets, and marks them seen', async () => {
    const agent = await t.newAgent({
      platforms: [
        {
          type: 'bluesky',
          settings: { pollIntervalSeconds: 1 },
          secrets: { identifier: agentSky.handle, appPassword: agentSky.appPassword },
        },
      ],
    });
    await running(t, agent.id, 'bluesky');
    await eventually(
      async () => (sky.callsTo('app.bsky.notification.listNotifications').length >= 2 ? true : null),
      'polling',
    );
    const mention = sky.mention(
      agentSky.did,
      alice,
      `@${agentSky.handle} is https://example.com/gas right? ask @alice.test`,
    );
    // An answer may be a thread: its first part is the one whose parent is someone else's post.
    const answers = () =>
      sky.postsBy(agentSky.did).filter((post) => !post.record.reply?.parent.uri.startsWith(`at://${agentSky.did}/`));
    const reply = await eventually(async () => answers()[0] ?? null, 'the reply');
    assert.deepEqual(reply.record.reply, {
      root: { uri: mention.uri, cid: mention.cid },
      parent: { uri: mention.uri, cid: mention.cid },
    });
    const features = (reply.record.facets ?? []).flatMap((facet: any) => facet.features);
    assert.ok(
      features.some((feature: any) => feature.uri === 'https://example.com/gas'),
      'the link is a facet',
    );
    assert.ok(
      features.some((feature: any) => feature.did === alice.did),
      'the @handle is a mention of its DID',
    );
    assert.deepEqual(sky.shapeProblems, [], 'every record as the network checks it');
    await eventually(async () => ((sky.seenAt(agentSky.did) ?? '') >= mention.indexedAt ? true : null), 'seen');

    // Alice answers the agent's reply: a `reply` notification, answered under it, with the thread's root.
    const followUp = sky.mention(agentSky.did, alice, 'and what about fees?', reply.uri);
    const second = await eventually(async () => answers()[1] ?? null, 'the second reply');
    assert.deepEqual(second.record.reply, {
      root: { uri: mention.uri, cid: mention.cid },
      parent: { uri: followUp.uri, cid: followUp.cid },
    });
    await quietFor(2_000);
    assert.equal(answers().length, 2, 'each answered once');
    const history = await t.inject({
      method: 'GET',
      url: `/v1/agents/${agent.id}/messages?roomId=${encodeURIComponent(`bluesky:${mention.uri}`)}`,
    });
    assert.equal(history.json().data.length, 4, 'the thread is one conversation');
    assert.equal(history.json().data[0].userId, `bluesky:${alice.did}`);
  });

  it('answers a poll’s posts once each, a thread’s in order with the earlier ones in its history', async () => {
    // An account of its own: the agents of the other tests still answer theirs.
    const threadSky = {
      did: 'did:plc:thread4bot4sky4tst',
      handle: 'thread-bot.test',
      appPassword: 'bsky-app-pass-thread',
    };
    sky.addAccount(threadSky);
    const agent = await t.newAgent({
      platforms: [
        {
          type: 'bluesky',
          settings: { pollIntervalSeconds: 1 },
          secrets: { identifier: threadSky.handle, appPassword: threadSky.appPassword },
        },
      ],
    });
    await running(t, agent.id, 'bluesky');
    const reads = sky.callsTo('app.bsky.notification.listNotifications').length;
    await eventually(
      async () => (sky.callsTo('app.bsky.notification.listNotifications').length > reads ? true : null),
      'polling',
    );
    const before = sky.postsBy(threadSky.did).length;
    // All between two reads: one poll finds them together. Three posts in Alice's thread, others elsewhere.
    const first = sky.mention(threadSky.did, alice, `@${threadSky.handle} first`);
    const others = Array.from({ length: 4 }, (_, index) =>
      sky.mention(
        threadSky.did,
        { did: `did:plc:other${index}other${index}other`, handle: `o${index}.test` },
        `@${threadSky.handle} hi ${index}`,
      ),
    );
    const second = sky.mention(threadSky.did, alice, `@${threadSky.handle} second`, first.uri);
    const third = sky.mention(threadSky.did, alice, `@${threadSky.handle} third`, second.uri);
    const mine = () => sky.postsBy(threadSky.did).slice(before);
    const answerTo = (uri: string) => mine().findIndex((post) => post.record.reply?.parent.uri === uri);
    await eventually(
      async () => ([first, ...others, second, third].every((post) => answerTo(post.uri) >= 0) ? true : null),
      'every answer',
    );
    await quietFor(2_000);
    for (const post of [first, ...others, second, third]) {
      assert.equal(mine().filter((reply) => reply.record.reply?.parent.uri === post.uri).length, 1, 'answered once');
    }
    // Each answer is a thread of its own: the next post of the thread is answered once all of it is posted.
    const lastPartOf = (uri: string) => {
      let index = answerTo(uri);
      while (mine().some((post, next) => next > index && post.record.reply?.parent.uri === mine()[index]!.uri)) {
        index = mine().findIndex((post) => post.record.reply?.parent.uri === mine()[index]!.uri);
      }
      return index;
    };
    assert.ok(lastPartOf(first.uri) < answerTo(second.uri), 'the second is answered after the first');
    assert.ok(lastPartOf(second.uri) < answerTo(third.uri), 'the third after the second');
    const text = (uri: string) => mine()[answerTo(uri)]!.record.text as string;
    assert.match(text(second.uri), /Earlier you said: “first”/, 'the first is in the thread’s history');
    assert.match(text(third.uri), /Earlier you said: “second”/);
    assert.deepEqual(sky.shapeProblems, []);
  });

  it('keeps a long answer within 300 graphemes a post, as a thread, and posts task texts', async () => {
    const agent = await t.newAgent({
      platforms: [
        {
          type: 'bluesky',
          settings: { pollIntervalSeconds: 1 },
          secrets: { identifier: agentSky.did, appPassword: agentSky.appPassword },
        },
      ],
    });
    await running(t, agent.id, 'bluesky');
    const before = sky.postsBy(agentSky.did).length;
    const posted = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/platforms/bluesky/posts`,
      payload: { text: `${'👩‍👩‍👧 family '.repeat(60)}end`, target: 'timeline' },
    });
    assert.equal(posted.statusCode, 200, posted.body);
    const thread = sky.postsBy(agentSky.did).slice(before);
    assert.ok(thread.length >= 2);
    thread.forEach((post, index) => {
      assert.ok(graphemeLength(post.record.text) <= 300);
      assert.ok(post.record.text.endsWith(` (${index + 1}/${thread.length})`));
      if (index === 0) assert.equal(post.record.reply, undefined, 'a post of its own');
      else {
        assert.equal(post.record.reply.root.uri, thread[0]!.uri);
        assert.equal(post.record.reply.parent.uri, thread[index - 1]!.uri);
      }
    });
    assert.deepEqual(sky.shapeProblems, []);
  });

  it('sets the agent to error for a wrong app password, without retrying', async () => {
    const agent = await t.newAgent({
      platforms: [{ type: 'bluesky', secrets: { identifier: agentSky.handle, appPassword: 'bsky-wrong-pass-3j8n' } }],
    });
    const entry = await eventually(async () => {
      const current = await report(t, agent.id, 'bluesky');
      return current.state === 'error' ? current : null;
    }, 'the error');
    assert.match(
      entry.reason,
      /Bluesky rejected the handle or app password \(Bluesky answered 401 AuthenticationRequired: Invalid identifier or password\)/,
    );
    const attempts = () =>
      sky.callsTo('com.atproto.server.createSession').filter((call) => call.body?.password === 'bsky-wrong-pass-3j8n')
        .length;
    assert.equal(attempts(), 1);
    await quietFor(2_000);
    assert.equal(attempts(), 1, 'no retries');
  });

  it('reaches a PDS the entry names through the outbound client, which refuses loopback', async () => {
    const agent = await t.newAgent({
      platforms: [
        {
          type: 'bluesky',
          settings: { serviceUrl: sky.serviceUrl },
          secrets: { identifier: agentSky.handle, appPassword: agentSky.appPassword },
        },
      ],
    });
    const entry = await eventually(async () => {
      const current = await report(t, agent.id, 'bluesky');
      return current.state === 'error' ? current : null;
    }, 'the refusal');
    assert.match(entry.reason, /the Bluesky service URL is refused/);
  });
});

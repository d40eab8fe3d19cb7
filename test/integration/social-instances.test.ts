import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { callJson } from '../helpers/call-json.js';
import { postgresSkip } from '../helpers/environment.js';
import { startFakeBluesky, type FakeBluesky } from '../helpers/fake-bluesky.js';
import { startFakeX, type FakeX } from '../helpers/fake-x-server.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { eventually } from '../helpers/wait.js';

/**
 * Two `agentd serve` processes on one PostgreSQL database (leases in
 * advisory locks), one agent on X and Bluesky (fakes on loopback): each
 * account is polled by one instance, every mention is answered once, and
 * neither a SIGKILL of the poller (the other takes over) nor its restart
 * answers anything twice; a mention the killed poller had taken and was
 * answering (the fake holds its reply) is answered by the instance that
 * takes the account over, once.
 */
const xAccount = { id: '1500000000000000777', username: 'agentd_twins' };
const xKeys = {
  appKey: 'x-app-key-instances',
  appSecret: 'x-app-secret-instances-61c2',
  accessToken: '1500000000000000777-x-access-token',
  accessSecret: 'x-access-secret-instances-7a3f',
};
const skyAccount = {
  did: 'did:plc:agentd4twins4sky4te',
  handle: 'twins.test',
  appPassword: 'bsky-app-pass-instances-2w5e',
};
const author = { did: 'did:plc:bob4bob4bob4bob4bob', handle: 'bob.test' };
/** Accounts of their own for the agents killed while answering: the first test's agent polls the others. */
const pendingXAccount = { id: '1500000000000000888', username: 'agentd_pending' };
const pendingXKeys = {
  appKey: 'x-app-key-pending-takeover',
  appSecret: 'x-app-secret-pending-takeover-3d9e',
  accessToken: '1500000000000000888-x-access-token',
  accessSecret: 'x-access-secret-pending-takeover-8f1b',
};
const pendingSkyAccount = {
  did: 'did:plc:agentd4pending4skyte',
  handle: 'pending-takeover.test',
  appPassword: 'bsky-app-pass-pending-takeover-5h2k',
};
const leaseMs = 3000;

describe('X and Bluesky on two instances', { skip: postgresSkip }, () => {
  const bootstrapKey = generateApiKey();
  const dataDirs: string[] = [];
  let database: FreshDatabase;
  let x: FakeX;
  let sky: FakeBluesky;
  let environment: Record<string, string>;
  const servers = new Map<string, ServerProcess>();

  const call = (server: ServerProcess, method: string, url: string, body?: unknown) =>
    callJson(server.url, bootstrapKey, method, url, body, [
      xKeys.appSecret,
      xKeys.accessSecret,
      skyAccount.appPassword,
      pendingXKeys.appSecret,
      pendingXKeys.accessSecret,
      pendingSkyAccount.appPassword,
    ]);

  const start = (name: string) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-social-'));
    dataDirs.push(dataDir);
    return startServer({ ...environment, AGENTD_DATA_DIR: dataDir, AGENTD_INSTANCE_ID: name });
  };

  /** Starts the instances of the two that are not running (one killed by an earlier test comes back). */
  async function bothRunning() {
    for (const name of ['first', 'second']) if (!servers.has(name)) servers.set(name, await start(name));
  }

  before(async () => {
    database = await createFreshDatabase();
    x = await startFakeX();
    x.addAccount({ id: xAccount.id, username: xAccount.username, oauth1: xKeys });
    sky = await startFakeBluesky();
    sky.addAccount(skyAccount);
    sky.addAccount({ ...author, appPassword: 'bob-pass-unused' });
    x.addAccount({ id: pendingXAccount.id, username: pendingXAccount.username, oauth1: pendingXKeys });
    sky.addAccount(pendingSkyAccount);
    environment = {
      DATABASE_URL: database.url,
      AGENTD_DATABASE_POOL_SIZE: '4',
      AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
      AGENTD_BOOTSTRAP_KEY: bootstrapKey,
      AGENTD_X_API_URL: x.apiUrl,
      AGENTD_BLUESKY_SERVICE_URL: sky.serviceUrl,
      AGENTD_PLATFORM_LEASE_MS: String(leaseMs),
      AGENTD_PLATFORM_CHANGE_POLL_MS: '100',
      AGENTD_BUILTIN_WORD_DELAY_MS: '0',
      AGENTD_SHUTDOWN_TIMEOUT_MS: '2000',
      // The test reads the agent's platforms every few milliseconds until they run: more than getAgent's
      // default 60 a minute when the instances take a second or two to start them.
      AGENTD_RATE_LIMITS: 'getAgent=100000',
    };
    servers.set('first', await start('first'));
    servers.set('second', await start('second'));
  });

  after(async () => {
    await Promise.all([...servers.values()].map((server) => server.stop('SIGKILL')));
    await x?.close();
    await sky?.close();
    await database?.drop();
    for (const directory of dataDirs) fs.rmSync(directory, { recursive: true, force: true });
  });

  async function holders(agentId: string): Promise<Record<string, string> | null> {
    const [server] = [...servers.values()];
    const report = await call(server!, 'GET', `/v1/agents/${agentId}/platforms`);
    const entries = report.body.data as Array<{ type: string; state: string; instance: string | null }>;
    if (!entries.every((entry) => entry.state === 'running' && entry.instance)) return null;
    return Object.fromEntries(entries.map((entry) => [entry.type, entry.instance!]));
  }

  /** The agent's answers: its posts that reply to someone else's (the first part of each thread). */
  const xAnswers = () => {
    const own = new Set(x.postsBy(xAccount.id).map((post) => post.id));
    return x.postsBy(xAccount.id).filter((post) => post.inReplyTo !== null && !own.has(post.inReplyTo));
  };
  const skyAnswers = () =>
    sky.postsBy(skyAccount.did).filter((post) => !post.record.reply?.parent.uri.startsWith(`at://${skyAccount.did}/`));

  async function mentionBoth(text: string) {
    const xMention = x.mention(xAccount.id, { authorId: '1700000000000000777', text: `@${xAccount.username} ${text}` });
    const skyMention = sky.mention(skyAccount.did, author, `@${skyAccount.handle} ${text}`);
    await eventually(
      async () =>
        xAnswers().some((post) => post.inReplyTo === xMention) &&
        skyAnswers().some((post) => post.record.reply.parent.uri === skyMention.uri)
          ? true
          : null,
      `the answers to “${text}”`,
      30_000,
    );
    return { xMention, skyMention };
  }

  it('polls each account on one instance, and answers every mention once across a SIGKILL and a restart', async () => {
    const first = servers.get('first')!;
    const created = await call(first, 'POST', '/v1/agents', {
      name: 'Social twins',
      platforms: [
        { type: 'x', settings: { pollIntervalSeconds: 1 }, secrets: xKeys },
        {
          type: 'bluesky',
          settings: { pollIntervalSeconds: 1 },
          secrets: { identifier: skyAccount.handle, appPassword: skyAccount.appPassword },
        },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const agentId = created.body.id as string;
    const initial = await eventually(() => holders(agentId), 'both running', 20_000);
    // A poller's first read sets where the account's mentions start (what came before is not news): a mention
    // is sent once each account has been read twice.
    await eventually(
      async () =>
        x.callsTo(/mentions$/, xAccount.id).length >= 2 &&
        sky.callsTo('app.bsky.notification.listNotifications', skyAccount.did).length >= 2
          ? true
          : null,
      'a second read of each account',
      20_000,
    );

    const one = await mentionBoth('one');
    // One poller per account: its reads are a poll interval apart; two pollers would interleave.
    const steadyFrom = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const xReads = x.callsTo(/mentions$/, xAccount.id).filter((read) => read.at >= steadyFrom);
    const skyReads = sky.callsTo('app.bsky.notification.listNotifications').filter((read) => read.at >= steadyFrom);
    for (const [name, reads] of [
      ['x', xReads],
      ['bluesky', skyReads],
    ] as const) {
      assert.ok(reads.length >= 3, `${name} is polled`);
      const gaps = reads.slice(1).map((read, index) => read.at - reads[index]!.at);
      assert.ok(Math.min(...gaps) >= 950, `${name} reads ${JSON.stringify(gaps)} ms apart: one poller`);
    }

    // The X poller's instance is killed: the other takes over, answers the next mentions, and not the first again.
    const killed = initial.x!;
    await servers.get(killed)!.stop('SIGKILL');
    servers.delete(killed);
    const two = await mentionBoth('two');
    const after = await eventually(() => holders(agentId), 'both running on the survivor', 30_000);
    assert.ok(Object.values(after).every((instance) => instance !== killed));

    // It comes back: whoever polls, nothing is answered twice.
    servers.set(killed, await start(killed));
    const three = await mentionBoth('three');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.deepEqual(
      xAnswers().map((post) => post.inReplyTo),
      [one.xMention, two.xMention, three.xMention],
      'each X mention answered once',
    );
    assert.deepEqual(
      skyAnswers().map((post) => post.record.reply.parent.uri),
      [one.skyMention.uri, two.skyMention.uri, three.skyMention.uri],
      'each Bluesky mention answered once',
    );
    assert.deepEqual(sky.shapeProblems, []);
    assert.ok(x.calls.every((request) => request.auth === 'oauth1'));
  });

  /** The instance running the agent's one platform, once it runs. */
  async function holderOf(agentId: string): Promise<string | null> {
    const [server] = [...servers.values()];
    const report = await call(server!, 'GET', `/v1/agents/${agentId}/platforms`);
    const entry = report.body.data[0] as { state: string; instance: string | null };
    return entry.state === 'running' ? entry.instance : null;
  }

  /**
   * Creates an agent on `platform`, lets its poller take `mention()` and kills
   * that instance while the reply is held by the fake; resolves with the mention.
   */
  async function killWhileAnswering<Mention>(
    platform: Record<string, unknown>,
    reads: () => number,
    hold: () => void,
    mention: () => Mention,
    answering: () => boolean,
  ): Promise<Mention> {
    await bothRunning();
    const created = await call(servers.get('first')!, 'POST', '/v1/agents', {
      name: `Pending ${String(platform.type)}`,
      platforms: [platform],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const agentId = created.body.id as string;
    const readsBefore = reads();
    const holder = await eventually(() => holderOf(agentId), 'a holder', 20_000);
    // The first read sets where the account's mentions start: after a second one, this mention is news.
    await eventually(async () => (reads() >= readsBefore + 2 ? true : null), 'a read after the first', 10_000);
    hold();
    const sent = mention();
    await eventually(async () => (answering() ? true : null), 'the holder posting its reply', 15_000);
    await servers.get(holder)!.stop('SIGKILL');
    servers.delete(holder);
    return sent;
  }

  it('X: the instance that takes the account over answers the mention the killed one had taken', async () => {
    const answersTo = (mentionId: string) =>
      x.postsBy(pendingXAccount.id).filter((post) => post.inReplyTo === mentionId);
    const postsBefore = x.callsTo(/^\/2\/tweets$/, pendingXAccount.id).length;
    const mentionId = await killWhileAnswering(
      { type: 'x', settings: { pollIntervalSeconds: 1 }, secrets: pendingXKeys },
      () => x.callsTo(/mentions$/, pendingXAccount.id).length,
      () => x.holdNext(/^\/2\/tweets$/, 1),
      () =>
        x.mention(pendingXAccount.id, {
          authorId: '1700000000000000778',
          text: `@${pendingXAccount.username} still there?`,
        }),
      () => x.callsTo(/^\/2\/tweets$/, pendingXAccount.id).length > postsBefore,
    );
    assert.deepEqual(answersTo(mentionId), [], 'the killed instance’s reply never reached X');
    await eventually(async () => (answersTo(mentionId).length > 0 ? true : null), 'the survivor’s answer', 30_000);
    // Absence of a second answer is observed over a window: a few poll intervals.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal(answersTo(mentionId).length, 1, 'answered once');
    assert.ok(x.calls.every((request) => request.auth === 'oauth1'));
  });

  it('Bluesky: the instance that takes the account over answers the mention the killed one had taken', async () => {
    const answersTo = (uri: string) =>
      sky.postsBy(pendingSkyAccount.did).filter((post) => post.record.reply?.parent.uri === uri);
    const postsBefore = sky.callsTo('com.atproto.repo.createRecord', pendingSkyAccount.did).length;
    const mention = await killWhileAnswering(
      {
        type: 'bluesky',
        settings: { pollIntervalSeconds: 1 },
        secrets: { identifier: pendingSkyAccount.handle, appPassword: pendingSkyAccount.appPassword },
      },
      () => sky.callsTo('app.bsky.notification.listNotifications', pendingSkyAccount.did).length,
      () => sky.holdNext('com.atproto.repo.createRecord', 1),
      () => sky.mention(pendingSkyAccount.did, author, `@${pendingSkyAccount.handle} still there?`),
      () => sky.callsTo('com.atproto.repo.createRecord', pendingSkyAccount.did).length > postsBefore,
    );
    assert.deepEqual(answersTo(mention.uri), [], 'the killed instance’s reply never reached the PDS');
    await eventually(async () => (answersTo(mention.uri).length > 0 ? true : null), 'the survivor’s answer', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal(answersTo(mention.uri).length, 1, 'answered once');
    assert.deepEqual(sky.shapeProblems, []);
  });
});

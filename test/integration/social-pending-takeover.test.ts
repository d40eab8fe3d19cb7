import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { postgresSkip } from '../helpers/environment.js';
import { startFakeBluesky, type FakeBluesky } from '../helpers/fake-bluesky.js';
import { startFakeX, type FakeX } from '../helpers/fake-x-server.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { eventually } from '../helpers/wait.js';

/**
 * Two `agentd serve` processes on one PostgreSQL database, an agent on X and
 * one on Bluesky (fakes on loopback): the instance polling the account takes
 * a mention and is killed (SIGKILL) while its reply is on its way (the fake
 * never answers that post), and the instance that takes the account over
 * answers that mention, once.
 */
const xAccount = { id: '1500000000000000888', username: 'agentd_pending' };
const xKeys = {
  appKey: 'x-app-key-pending-takeover',
  appSecret: 'x-app-secret-pending-takeover-3d9e',
  accessToken: '1500000000000000888-x-access-token',
  accessSecret: 'x-access-secret-pending-takeover-8f1b',
};
const skyAccount = {
  did: 'did:plc:agentd4pending4skyte',
  handle: 'pending-takeover.test',
  appPassword: 'bsky-app-pass-pending-takeover-5h2k',
};
const author = { did: 'did:plc:dave4dave4dave4dave4', handle: 'dave.test' };
const leaseMs = 3000;

describe('X and Bluesky: a mention taken by a killed instance', { skip: postgresSkip }, () => {
  const bootstrapKey = generateApiKey();
  const dataDirs: string[] = [];
  let database: FreshDatabase;
  let x: FakeX;
  let sky: FakeBluesky;
  let environment: Record<string, string>;
  const servers = new Map<string, ServerProcess>();

  async function call(server: ServerProcess, method: string, url: string, body?: unknown) {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${bootstrapKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    for (const secret of [xKeys.appSecret, xKeys.accessSecret, skyAccount.appPassword]) {
      assert.ok(!text.includes(secret), 'a secret appears in a response');
    }
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  /** Starts the instances of the two that are not running (one killed by an earlier test comes back). */
  async function bothRunning() {
    for (const name of ['first', 'second']) {
      if (servers.has(name)) continue;
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-social-pending-'));
      dataDirs.push(dataDir);
      servers.set(name, await startServer({ ...environment, AGENTD_DATA_DIR: dataDir, AGENTD_INSTANCE_ID: name }));
    }
  }

  before(async () => {
    database = await createFreshDatabase();
    x = await startFakeX();
    x.addAccount({ id: xAccount.id, username: xAccount.username, oauth1: xKeys });
    sky = await startFakeBluesky();
    sky.addAccount(skyAccount);
    sky.addAccount({ ...author, appPassword: 'dave-pass-unused' });
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
      AGENTD_RATE_LIMITS: 'getAgent=100000',
    };
    await bothRunning();
  });

  after(async () => {
    await Promise.all([...servers.values()].map((server) => server.stop('SIGKILL')));
    await x?.close();
    await sky?.close();
    await database?.drop();
    for (const directory of dataDirs) fs.rmSync(directory, { recursive: true, force: true });
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
    const answersTo = (mentionId: string) => x.postsBy(xAccount.id).filter((post) => post.inReplyTo === mentionId);
    const postsBefore = x.callsTo(/^\/2\/tweets$/, xAccount.id).length;
    const mentionId = await killWhileAnswering(
      { type: 'x', settings: { pollIntervalSeconds: 1 }, secrets: xKeys },
      () => x.callsTo(/mentions$/, xAccount.id).length,
      () => x.holdNext(/^\/2\/tweets$/, 1),
      () => x.mention(xAccount.id, { authorId: '1700000000000000888', text: `@${xAccount.username} still there?` }),
      () => x.callsTo(/^\/2\/tweets$/, xAccount.id).length > postsBefore,
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
      sky.postsBy(skyAccount.did).filter((post) => post.record.reply?.parent.uri === uri);
    const postsBefore = sky.callsTo('com.atproto.repo.createRecord', skyAccount.did).length;
    const mention = await killWhileAnswering(
      {
        type: 'bluesky',
        settings: { pollIntervalSeconds: 1 },
        secrets: { identifier: skyAccount.handle, appPassword: skyAccount.appPassword },
      },
      () => sky.callsTo('app.bsky.notification.listNotifications', skyAccount.did).length,
      () => sky.holdNext('com.atproto.repo.createRecord', 1),
      () => sky.mention(skyAccount.did, author, `@${skyAccount.handle} still there?`),
      () => sky.callsTo('com.atproto.repo.createRecord', skyAccount.did).length > postsBefore,
    );
    assert.deepEqual(answersTo(mention.uri), [], 'the killed instance’s reply never reached the PDS');
    await eventually(async () => (answersTo(mention.uri).length > 0 ? true : null), 'the survivor’s answer', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal(answersTo(mention.uri).length, 1, 'answered once');
    assert.deepEqual(sky.shapeProblems, []);
  });
});

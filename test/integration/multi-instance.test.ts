import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { callJson } from '../helpers/call-json.js';
import { postgresSkip, redisSkip, redisUrl } from '../helpers/environment.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { turnsOf, type FakeProviderServer } from '../helpers/fake-provider-server.js';
import { sendStreamedMessage, type StreamedMessage } from '../helpers/message-stream.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';
import { randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { runAgentd, startServer, type ServerProcess } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Two real `agentd serve` processes on one fresh PostgreSQL database and one
 * Redis (a key prefix of their own), with the same secret and bootstrap keys:
 * the deployment the README describes, behaving as one service. Their agents'
 * model is a fake OpenAI-compatible provider in this process, which records
 * what each instance sent it and holds streams open for as long as a test needs.
 */
const skip = postgresSkip || redisSkip;
const leaseMs = 2000;
const providerModel = { provider: 'openai-compatible', name: 'test-model' };

interface Caller {
  key: string;
}

const call = (server: ServerProcess, caller: Caller, method: string, url: string, body?: unknown) =>
  callJson(server.url, caller.key, method, url, body);

describe('two instances on one PostgreSQL and one Redis', { skip }, () => {
  const bootstrap: Caller = { key: generateApiKey() };
  const redisPrefix = randomRedisPrefix();
  const dataDirs: string[] = [];
  let database: FreshDatabase;
  let fake: FakeProviderServer;
  let environment: Record<string, string>;
  let first: ServerProcess;
  let second: ServerProcess;

  /** The environment every instance of this deployment shares; each gets its own (unused) data dir. */
  function instanceEnvironment(): Record<string, string> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-instance-'));
    dataDirs.push(dataDir);
    return { ...environment, AGENTD_DATA_DIR: dataDir };
  }

  /** A new account with an all-scope key, made with the command line as an operator would. */
  async function newAccount(): Promise<Caller> {
    const account = await runAgentd(
      ['accounts', 'create', '--name', 'multi-instance', '--json'],
      instanceEnvironment(),
    );
    assert.equal(account.code, 0, account.stderr);
    const { id } = JSON.parse(account.stdout) as { id: string };
    const key = await runAgentd(['keys', 'create', '--account', id, '--json'], instanceEnvironment());
    assert.equal(key.code, 0, key.stderr);
    return { key: (JSON.parse(key.stdout) as { key: string }).key };
  }

  before(async () => {
    database = await createFreshDatabase();
    fake = await startFakeOpenAiServer();
    environment = {
      DATABASE_URL: database.url,
      AGENTD_DATABASE_POOL_SIZE: '4',
      REDIS_URL: redisUrl as string,
      AGENTD_REDIS_PREFIX: redisPrefix,
      AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
      AGENTD_BOOTSTRAP_KEY: bootstrap.key,
      // Short leases, so that the test of a killed instance waits seconds, not half a minute.
      AGENTD_CONCURRENCY_LEASE_MS: String(leaseMs),
      AGENTD_SHUTDOWN_TIMEOUT_MS: '5000',
      AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    };
    // Started together on an empty database: both migrate and bootstrap at once.
    [first, second] = await Promise.all([startServer(instanceEnvironment()), startServer(instanceEnvironment())]);
  });

  after(async () => {
    await Promise.all([first?.stop('SIGKILL'), second?.stop('SIGKILL')]);
    await fake?.close();
    await database?.drop();
    await removeRedisKeys(redisPrefix);
    for (const directory of dataDirs) fs.rmSync(directory, { recursive: true, force: true });
  });

  it('starts both on an empty database at once: both ready, one bootstrap account', async () => {
    for (const server of [first, second]) {
      const ready = await fetch(`${server.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ok', checks: { database: 'ok', redis: 'ok' } });
    }
    const keysOnFirst = await call(first, bootstrap, 'GET', '/v1/api-keys');
    const keysOnSecond = await call(second, bootstrap, 'GET', '/v1/api-keys');
    assert.equal(keysOnFirst.status, 200);
    assert.equal(keysOnFirst.body.data.length, 1, 'the bootstrap key was created once');
    // The same key on both. When it was last used is left out: each instance records its own use a moment after the
    // request, so either read may or may not see the other's.
    const withoutUse = (body: { data: Array<Record<string, unknown>> }) =>
      body.data.map(({ lastUsedAt: _lastUsedAt, ...key }) => key);
    assert.deepEqual(withoutUse(keysOnSecond.body), withoutUse(keysOnFirst.body));
  });

  it('reads on one instance what was written on the other', async () => {
    const owner = await newAccount();
    const created = await call(first, owner, 'POST', '/v1/agents', {
      name: 'Shared',
      platforms: [{ type: 'telegram', secrets: { botToken: '123456:shared-secret-9f1e' } }],
    });
    assert.equal(created.status, 201);

    const read = await call(second, owner, 'GET', `/v1/agents/${created.body.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(
      read.body,
      created.body,
      'same agent, secrets masked the same (both instances share the secret key)',
    );

    const patched = await call(second, owner, 'PATCH', `/v1/agents/${created.body.id}`, { status: 'inactive' });
    assert.equal(patched.status, 200);
    const listed = await call(first, owner, 'GET', '/v1/agents?status=inactive');
    assert.deepEqual(
      listed.body.data.map((agent: { id: string }) => agent.id),
      [created.body.id],
    );
    assert.equal(listed.body.pagination.total, 1);
  });

  it('counts the create limit once for both instances: exactly 10 of 30 simultaneous creates', async () => {
    const owner = await newAccount();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        call(index % 2 === 0 ? first : second, owner, 'POST', '/v1/agents', { name: `burst ${index}` }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    assert.equal(statuses.filter((status) => status === 201).length, 10, `statuses: ${statuses.join(' ')}`);
    assert.equal(statuses.filter((status) => status === 429).length, 20);
    for (const response of responses.filter((candidate) => candidate.status === 429)) {
      assert.equal(response.body.code, 'rate_limited');
      assert.equal(response.headers.get('x-ratelimit-limit'), '10');
      assert.ok(Number(response.headers.get('retry-after')) >= 1);
    }
    const listed = await call(second, owner, 'GET', '/v1/agents?limit=100');
    assert.equal(listed.body.pagination.total, 10);
  });

  it('refuses on one instance, at the next request, a key revoked on the other', async () => {
    const owner = await newAccount();
    const issued = await call(first, owner, 'POST', '/v1/api-keys', { name: 'short-lived' });
    assert.equal(issued.status, 201);
    const shortLived: Caller = { key: issued.body.key };
    assert.equal((await call(second, shortLived, 'GET', '/v1/agents')).status, 200);

    const revoked = await call(first, owner, 'DELETE', `/v1/api-keys/${issued.body.id}`);
    assert.deepEqual(revoked.body, { id: issued.body.id, revoked: true });

    const refused = await call(second, shortLived, 'GET', '/v1/agents');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'unauthorized');
    assert.equal((await call(first, shortLived, 'GET', '/v1/agents')).status, 401);
  });

  describe('messages across instances', () => {
    /** Every stream a test opened, hung up after it so that none runs into the next test (or the shutdown). */
    const opened: StreamedMessage[] = [];
    beforeEach(() => fake.reset());
    afterEach(async () => {
      for (const stream of opened.splice(0)) stream.hangUp();
      const ended = await waitFor(() => fake.requests.every((request) => request.aborted || request.completed), 5000);
      assert.notEqual(ended, null, 'a hang-up ends the model call');
    });

    async function newAgent(owner: Caller): Promise<string> {
      const created = await call(first, owner, 'POST', '/v1/agents', { name: 'Ava', model: providerModel });
      assert.equal(created.status, 201);
      return created.body.id;
    }
    async function stream(
      server: ServerProcess,
      owner: Caller,
      agentId: string,
      text: string,
    ): Promise<StreamedMessage> {
      const streamed = await sendStreamedMessage(server.url, owner.key, agentId, { text });
      opened.push(streamed);
      return streamed;
    }
    /** `count` streams at once, spread over `servers` in turn. */
    const openStreams = (servers: ServerProcess[], owner: Caller, agentId: string, count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, index) =>
          stream(servers[index % servers.length]!, owner, agentId, `stream ${index}`),
        ),
      );
    const countOf = (streams: StreamedMessage[], status: number) =>
      streams.filter((streamed) => streamed.status === status).length;
    /** Each stream's first word comes at once, the next not for a minute: a stream holds its slot until its client hangs up. */
    const holdStreamsOpen = () => fake.setDefault({ reply: 'held open', tokenDelayMs: 60_000 });

    it('continues a conversation on the other instance', async () => {
      const owner = await newAccount();
      const agentId = await newAgent(owner);
      fake.enqueue({ reply: 'Nice to meet you, Bob.' }, { reply: 'You are Bob.' });
      const onFirst = await call(first, owner, 'POST', `/v1/agents/${agentId}/messages`, {
        text: 'My name is Bob.',
        userId: 'u1',
      });
      assert.equal(onFirst.status, 200);
      const onSecond = await call(second, owner, 'POST', `/v1/agents/${agentId}/messages`, {
        text: 'What is my name?',
        userId: 'u1',
      });
      assert.equal(onSecond.status, 200);
      assert.equal(onSecond.body.text, 'You are Bob.');

      // What the second instance sent its model: the exchange held by the first, then the new message.
      assert.equal(fake.requests.length, 2);
      assert.deepEqual(turnsOf(fake.requests[1]!), [
        'user: My name is Bob.',
        'assistant: Nice to meet you, Bob.',
        'user: What is my name?',
      ]);

      const historyOnFirst = await call(first, owner, 'GET', `/v1/agents/${agentId}/messages?userId=u1`);
      const historyOnSecond = await call(second, owner, 'GET', `/v1/agents/${agentId}/messages?userId=u1`);
      assert.deepEqual(
        historyOnFirst.body.data.map((turn: { role: string; text: string }) => `${turn.role}: ${turn.text}`),
        ['agent: You are Bob.', 'user: What is my name?', 'agent: Nice to meet you, Bob.', 'user: My name is Bob.'],
      );
      assert.deepEqual(historyOnSecond.body, historyOnFirst.body);
    });

    it('holds the in-flight limit of 10 per agent across both instances', async () => {
      const owner = await newAccount();
      const agentId = await newAgent(owner);
      holdStreamsOpen();
      const streams = await openStreams([first, second], owner, agentId, 20);
      // Limits kept per instance would have let all 20 start, 10 on each.
      assert.equal(countOf(streams, 200), 10, `statuses: ${streams.map((streamed) => streamed.status).join(' ')}`);
      assert.equal(countOf(streams, 429), 10);
      for (const streamed of streams) {
        if (streamed.status === 200) {
          assert.equal((await streamed.events!.next())?.event, 'message.started');
        } else {
          assert.equal(streamed.problem?.code, 'concurrency_limited');
          assert.equal(streamed.headers['retry-after'], '1');
        }
      }
      assert.equal(fake.requests.length, 10, 'only the ten admitted reached the model');
    });

    it('frees the stream slots of a SIGKILLed instance within the lease', async () => {
      const owner = await newAccount();
      const agentId = await newAgent(owner);
      holdStreamsOpen();
      const third = await startServer(instanceEnvironment());
      try {
        assert.equal(countOf(await openStreams([third], owner, agentId, 10), 200), 10);
      } finally {
        assert.deepEqual(await third.stop('SIGKILL'), { code: null, signal: 'SIGKILL' });
      }
      const killedAt = Date.now();

      const tooEarly = await stream(first, owner, agentId, 'too early');
      assert.equal(tooEarly.status, 429, "the dead instance's leases still count");
      assert.equal(tooEarly.problem?.code, 'concurrency_limited');

      let admitted = 0;
      const admit = async (server: ServerProcess) => {
        const attempt = await stream(server, owner, agentId, 'after the lease');
        if (attempt.status !== 200) assert.equal(attempt.problem?.code, 'concurrency_limited');
        else admitted += 1;
        return attempt.status === 200;
      };
      // Asked every 150 ms, on either survivor in turn, until a stream is admitted again.
      let attempts = 0;
      const freed = await waitFor(() => admit(attempts++ % 2 === 0 ? first : second), leaseMs + 3000, 150);
      const freedAfter = Date.now() - killedAt;
      assert.notEqual(freed, null, `no stream admitted within ${leaseMs + 3000} ms of the kill`);
      // Leases are refreshed every third of their time, so the last refresh outlives the kill by two thirds of
      // a lease or more; half of one is asserted, which a slot released at the kill would not reach.
      assert.ok(freedAfter >= leaseMs / 2, `slots stayed taken while the leases lived (freed after ${freedAfter} ms)`);

      // All ten come back (their leases end within moments of each other), and the limit still stops an eleventh.
      const allFreed = await waitFor(
        async () => {
          while (admitted < 10) if (!(await admit(second))) return false;
          return true;
        },
        2000,
        50,
      );
      assert.notEqual(allFreed, null, `only ${admitted} of the 10 slots came back`);
      assert.equal((await stream(first, owner, agentId, 'one too many')).status, 429);
    });
  });

  it('stops both instances cleanly on SIGTERM', async () => {
    const [firstExit, secondExit] = await Promise.all([first.stop('SIGTERM'), second.stop('SIGTERM')]);
    assert.deepEqual(firstExit, { code: 0, signal: null });
    assert.deepEqual(secondExit, { code: 0, signal: null });
    for (const server of [first, second]) {
      // Not timed out: the streams of the tests above ended when their clients hung up.
      assert.ok(
        server.logEntries().some((entry) => entry.msg === 'stopped' && entry.timedOut === false),
        server.output(),
      );
    }
  });
});

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { postgresSkip, redisSkip, redisUrl } from '../helpers/environment.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';
import { randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { runAgentd, startServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * Two real `agentd serve` processes on one fresh PostgreSQL database and one
 * Redis (a key prefix of their own), with the same secret and bootstrap keys:
 * the deployment the README describes, behaving as one service.
 */
const skip = postgresSkip || redisSkip;

interface Caller {
  key: string;
}

async function call(server: ServerProcess, caller: Caller, method: string, url: string, body?: unknown) {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${caller.key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

describe('two instances on one PostgreSQL and one Redis', { skip }, () => {
  const bootstrap: Caller = { key: generateApiKey() };
  const redisPrefix = randomRedisPrefix();
  const dataDirs: string[] = [];
  let database: FreshDatabase;
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
    const account = await runAgentd(['accounts', 'create', '--name', 'multi-instance', '--json'], instanceEnvironment());
    assert.equal(account.code, 0, account.stderr);
    const { id } = JSON.parse(account.stdout) as { id: string };
    const key = await runAgentd(['keys', 'create', '--account', id, '--json'], instanceEnvironment());
    assert.equal(key.code, 0, key.stderr);
    return { key: (JSON.parse(key.stdout) as { key: string }).key };
  }

  before(async () => {
    database = await createFreshDatabase();
    environment = {
      DATABASE_URL: database.url,
      AGENTD_DATABASE_POOL_SIZE: '4',
      REDIS_URL: redisUrl as string,
      AGENTD_REDIS_PREFIX: redisPrefix,
      AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
      AGENTD_BOOTSTRAP_KEY: bootstrap.key,
      // Short leases, so that the phase-2 test of a killed instance waits seconds, not half a minute.
      AGENTD_CONCURRENCY_LEASE_MS: '2000',
      AGENTD_SHUTDOWN_TIMEOUT_MS: '5000',
    };
    // Started together on an empty database: both migrate and bootstrap at once.
    [first, second] = await Promise.all([startServer(instanceEnvironment()), startServer(instanceEnvironment())]);
  });

  after(async () => {
    await Promise.all([first?.stop('SIGKILL'), second?.stop('SIGKILL')]);
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
    assert.deepEqual(keysOnSecond.body, keysOnFirst.body);
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
    assert.deepEqual(read.body, created.body, 'same agent, secrets masked the same (both instances share the secret key)');

    const patched = await call(second, owner, 'PATCH', `/v1/agents/${created.body.id}`, { status: 'inactive' });
    assert.equal(patched.status, 200);
    const listed = await call(first, owner, 'GET', '/v1/agents?status=inactive');
    assert.deepEqual(listed.body.data.map((agent: { id: string }) => agent.id), [created.body.id]);
    assert.equal(listed.body.pagination.total, 1);
  });

  it('counts the create limit once for both instances: exactly 10 of 30 simultaneous creates', async () => {
    const owner = await newAccount();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) => call(index % 2 === 0 ? first : second, owner, 'POST', '/v1/agents', { name: `burst ${index}` })),
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

  /*
   * Extension points for the messaging API (POST /v1/agents/{id}/messages),
   * which lands separately. Each test starts from `newAccount()` and the two
   * running servers; the SIGKILL test starts a third instance with
   * `startServer(instanceEnvironment())` so the others keep running. Leases
   * last AGENTD_CONCURRENCY_LEASE_MS (2 s here).
   */
  describe('messages across instances', () => {
    it('continues a conversation on the other instance', {
      todo: 'needs the messaging API: send as userId u1 on one instance, then on the other; the reply sees the history',
    });
    it('holds the in-flight limit of 10 per agent across both instances', {
      todo: 'needs streamed replies: 20 simultaneous streams spread over both, exactly 10 start and 10 get 429 concurrency_limited',
    });
    it('frees the stream slots of a SIGKILLed instance within the lease', {
      todo: 'needs streamed replies: a third instance holds 10 streams, is killed with SIGKILL, and the slots free within the lease',
    });
  });

  it('stops both instances cleanly on SIGTERM', async () => {
    const [firstExit, secondExit] = await Promise.all([first.stop('SIGTERM'), second.stop('SIGTERM')]);
    assert.deepEqual(firstExit, { code: 0, signal: null });
    assert.deepEqual(secondExit, { code: 0, signal: null });
    for (const server of [first, second]) {
      assert.ok(server.logEntries().some((entry) => entry.msg === 'stopped'), server.output());
    }
  });
});

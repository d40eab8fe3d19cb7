import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { databaseUrl, postgresSkip, redisSkip } from '../helpers/environment.js';
import { unusedPort } from '../helpers/network.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';
import { PostgresCluster, postgresClusterSkip } from '../helpers/postgres-cluster.js';
import { RedisServer, redisServerSkip } from '../helpers/redis-server.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { startLoad, unexpectedFailures, type Load } from '../helpers/store-load.js';
import { waitFor } from '../helpers/wait.js';

/**
 * A real `agentd serve` process under load (8 clients creating and reading
 * agents) while its store goes away: PostgreSQL connections terminated, a
 * PostgreSQL server stopped, a Redis server stopped. Each store here belongs to
 * its test alone (a fresh database, or a server started on a free port), so the
 * outage never reaches other tests running at the same time.
 */
const clients = 8;
/** What a patient client waits for an answer; a request that takes longer counts as a hang. */
const clientTimeoutMs = 8000;
const recoveryBoundMs = 5000;

const temporaryDirectories: string[] = [];
after(() => {
  for (const directory of temporaryDirectories) fs.rmSync(directory, { recursive: true, force: true });
});

function baseEnvironment(key: string): Record<string, string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-outage-'));
  temporaryDirectories.push(dataDir);
  return {
    AGENTD_DATA_DIR: dataDir,
    AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
    AGENTD_BOOTSTRAP_KEY: key,
    // Warnings only (lost connections, an unreachable store); the port is given, as the listening line is hidden.
    LOG_LEVEL: 'warn',
  };
}

function isAlive(server: ServerProcess): boolean {
  return server.child.exitCode === null && server.child.signalCode === null;
}

async function readiness(
  server: ServerProcess,
): Promise<{ status: number; body: { status: string; checks: Record<string, string> } }> {
  const response = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(clientTimeoutMs) });
  return { status: response.status, body: (await response.json()) as never };
}

/** Waits until the load has had `count` more answers than now: time under load, measured in requests. */
async function moreAnswers(load: Load, count: number, withinMs = 10_000): Promise<void> {
  const target = load.report.total + count;
  const took = await waitFor(() => load.report.total >= target, withinMs, 5);
  assert.notEqual(took, null, `the load did not get ${count} more answers within ${withinMs} ms`);
}

/** Milliseconds until a create and a read of the new agent both succeed, or null past `withinMs`. */
async function timeToServe(server: ServerProcess, key: string, withinMs: number): Promise<number | null> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return waitFor(async () => {
    const created = await fetch(`${server.url}/v1/agents`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'After the outage' }),
    }).catch(() => null);
    if (created?.status !== 201) return false;
    const { id } = (await created.json()) as { id: string };
    const read = await fetch(`${server.url}/v1/agents/${id}`, { headers }).catch(() => null);
    return read?.status === 200;
  }, withinMs);
}

describe('PostgreSQL connections terminated under load', { skip: postgresSkip }, () => {
  const key = generateApiKey();
  let database: FreshDatabase;
  let server: ServerProcess;
  let administrator: pg.Client;

  before(async () => {
    database = await createFreshDatabase();
    server = await startServer({
      ...baseEnvironment(key),
      DATABASE_URL: database.url,
      AGENTD_DATABASE_POOL_SIZE: '4',
      AGENTD_RATE_LIMITS: 'off',
      PORT: String(await unusedPort()),
    });
    administrator = new pg.Client({ connectionString: databaseUrl });
    await administrator.connect();
  });

  after(async () => {
    await server?.stop('SIGKILL');
    await administrator?.end();
    await database?.drop();
  });

  it('keeps the process up, answers only 503 service_unavailable with Retry-After, then serves again', async () => {
    const load = startLoad(server, key, { clients, timeoutMs: clientTimeoutMs });
    let terminated = 0;
    try {
      await moreAnswers(load, 40);
      for (let round = 0; round < 3; round++) {
        // Only this test's own database: other test files use the shared server at the same time.
        const result = await administrator.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [database.name],
        );
        terminated += result.rowCount ?? 0;
        await moreAnswers(load, 40);
      }
    } finally {
      await load.stop();
    }
    const report = load.report;
    assert.ok(terminated >= 3, `connections were terminated (${terminated})`);
    assert.ok(isAlive(server), `the process is still running:\n${server.output().slice(-3000)}`);
    assert.deepEqual(unexpectedFailures(report), [], `answers by status: ${JSON.stringify(report.counts)}`);
    const recovered = await timeToServe(server, key, recoveryBoundMs);
    assert.notEqual(recovered, null, 'creates and reads succeed again');
    assert.equal((await readiness(server)).status, 200);
    process.stdout.write(`# terminated ${terminated} connections; answers ${JSON.stringify(report.counts)}\n`);
  });
});

describe('a PostgreSQL server stopped and started under load', { skip: postgresSkip || postgresClusterSkip }, () => {
  const key = generateApiKey();
  let cluster: PostgresCluster;
  let server: ServerProcess;

  before(async () => {
    cluster = await PostgresCluster.create();
    server = await startServer({
      ...baseEnvironment(key),
      DATABASE_URL: cluster.url(),
      AGENTD_DATABASE_POOL_SIZE: '4',
      AGENTD_RATE_LIMITS: 'off',
      PORT: String(await unusedPort()),
    });
  });

  after(async () => {
    await server?.stop('SIGKILL');
    await cluster?.destroy();
  });

  it('answers 503 and is not ready while it is down, and serves within 5 s of its return without a restart', async () => {
    const load = startLoad(server, key, { clients, timeoutMs: clientTimeoutMs });
    let notReady;
    let ready;
    let serving;
    try {
      await moreAnswers(load, 40);
      await cluster.stop();
      notReady = await readiness(server);
      await moreAnswers(load, 40);
      await cluster.start();
      const restartedAt = Date.now();
      ready = await waitFor(async () => (await readiness(server)).status === 200, recoveryBoundMs);
      serving = await timeToServe(server, key, recoveryBoundMs);
      serving = serving === null ? null : Date.now() - restartedAt;
      await moreAnswers(load, 40);
    } finally {
      await load.stop();
    }
    const report = load.report;
    assert.ok(isAlive(server), `the process is still running:\n${server.output().slice(-3000)}`);
    assert.equal(notReady.status, 503);
    assert.deepEqual(notReady.body, { status: 'unavailable', checks: { database: 'unavailable' } });
    assert.ok((report.counts['503 service_unavailable'] ?? 0) > 0, `answers: ${JSON.stringify(report.counts)}`);
    assert.deepEqual(unexpectedFailures(report), [], `answers by status: ${JSON.stringify(report.counts)}`);
    assert.notEqual(ready, null, 'ready again within 5 s');
    assert.ok(serving !== null && serving <= recoveryBoundMs, `serving again within 5 s (took ${serving} ms)`);
    process.stdout.write(
      `# ready after ${ready} ms, serving after ${serving} ms; answers ${JSON.stringify(report.counts)}\n`,
    );
  });
});

describe('a Redis server stopped and started under load', { skip: redisSkip || redisServerSkip }, () => {
  const key = generateApiKey();
  let redis: RedisServer;
  let server: ServerProcess;

  before(async () => {
    redis = await RedisServer.start();
    server = await startServer({
      ...baseEnvironment(key),
      REDIS_URL: redis.url,
      // Limits on, so that every request goes through Redis; high enough never to be reached.
      AGENTD_RATE_LIMITS: 'createAgent=100000,getAgent=100000',
      PORT: String(await unusedPort()),
    });
  });

  after(async () => {
    await server?.stop('SIGKILL');
    await redis?.stop();
  });

  it('keeps serving without a 500 or a hang, reports Redis in /readyz, and uses it again within 5 s', async () => {
    const load = startLoad(server, key, { clients, timeoutMs: clientTimeoutMs });
    let degraded;
    let recovered;
    try {
      await moreAnswers(load, 40);
      await redis.stop();
      degraded = await waitFor(async () => (await readiness(server)).body.status === 'degraded', recoveryBoundMs);
      const duringOutage = load.report.successes;
      await moreAnswers(load, 40);
      assert.ok(load.report.successes > duringOutage, 'requests succeed while Redis is down');
      await redis.start();
      recovered = await waitFor(async () => (await readiness(server)).body.status === 'ok', recoveryBoundMs);
      await moreAnswers(load, 40);
    } finally {
      await load.stop();
    }
    const report = load.report;
    assert.ok(isAlive(server), `the process is still running:\n${server.output().slice(-3000)}`);
    assert.notEqual(degraded, null, '/readyz reports Redis as missing');
    assert.deepEqual(report.failures, [], `answers by status: ${JSON.stringify(report.counts)}`);
    assert.notEqual(recovered, null, '/readyz is ok again within 5 s of Redis returning');
    process.stdout.write(
      `# degraded after ${degraded} ms, ok again ${recovered} ms after restart; answers ${JSON.stringify(report.counts)}\n`,
    );
  });
});

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { callJson } from '../helpers/call-json.js';
import { postgresSkip, redisSkip, redisUrl } from '../helpers/environment.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';
import { randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { readEvents } from '../helpers/sse-client.js';
import { eventually } from '../helpers/wait.js';

/**
 * Approvals across real `agentd serve` processes on one PostgreSQL: a run
 * paused on one instance is decided on another, which goes on with the reply;
 * and a pending approval outlives a restart of the instance that paused.
 */
const skip = postgresSkip || redisSkip;

describe('approvals on several instances', { skip }, () => {
  const key = generateApiKey();
  const redisPrefix = randomRedisPrefix();
  const dataDirs: string[] = [];
  let database: FreshDatabase;
  let fake: FakeProviderServer;
  let environment: Record<string, string>;
  let first: ServerProcess;
  let second: ServerProcess;

  function instanceEnvironment(): Record<string, string> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-approvals-'));
    dataDirs.push(dataDir);
    return { ...environment, AGENTD_DATA_DIR: dataDir };
  }

  const call = (server: ServerProcess, method: string, url: string, body?: unknown) =>
    callJson(server.url, key, method, url, body);

  /** An agent whose `calculate` tool (the math plugin) waits for approval. */
  async function newAgent(server: ServerProcess): Promise<string> {
    const created = await call(server, 'POST', '/v1/agents', {
      name: 'Careful',
      model: { provider: 'openai-compatible', name: 'test-model' },
      plugins: [{ name: 'math', approval: { tools: ['calculate'] } }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.id;
  }

  /** Sends a message the model answers with a `calculate` call: the reply pauses. */
  async function pauseOn(server: ServerProcess, agentId: string) {
    fake.enqueue({ toolCalls: [{ name: 'calculate', input: { expression: '6*7' } }] });
    const sent = await call(server, 'POST', `/v1/agents/${agentId}/messages`, { text: 'What is 6*7?', userId: 'ana' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.finishReason, 'approval_required');
    return sent.body;
  }

  const resumedOn = (server: ServerProcess, agentId: string, runId: string) =>
    eventually(
      async () => {
        const run = (await call(server, 'GET', `/v1/agents/${agentId}/runs/${runId}`)).body;
        return run.status === 'completed' || run.status === 'failed' ? run : null;
      },
      `run ${runId} to end`,
      30_000,
    );

  before(async () => {
    database = await createFreshDatabase();
    fake = await startFakeOpenAiServer();
    environment = {
      DATABASE_URL: database.url,
      AGENTD_DATABASE_POOL_SIZE: '4',
      REDIS_URL: redisUrl as string,
      AGENTD_REDIS_PREFIX: redisPrefix,
      AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
      AGENTD_BOOTSTRAP_KEY: key,
      AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      // The default bound for a stopped instance: a busy machine (the first use of a plugin loads its library)
      // must not make a live instance look stopped; no test here stops one uncleanly.
      AGENTD_RUN_HEARTBEAT_MS: '500',
      AGENTD_RUN_STALE_MS: '10000',
      AGENTD_RUN_FLUSH_MS: '50',
      AGENTD_RUN_POLL_MS: '50',
      AGENTD_SHUTDOWN_TIMEOUT_MS: '2000',
    };
    // One after the other: the first migrates and bootstraps.
    first = await startServer(instanceEnvironment(), 60_000);
    second = await startServer(instanceEnvironment(), 60_000);
  });

  after(async () => {
    await Promise.all([first?.stop('SIGKILL'), second?.stop('SIGKILL')]);
    await fake?.close();
    await database?.drop();
    await removeRedisKeys(redisPrefix);
    for (const directory of dataDirs) fs.rmSync(directory, { recursive: true, force: true });
  });

  beforeEach(() => fake.reset());

  it('is decided on another instance than the one that paused, which goes on with the reply', async () => {
    const agentId = await newAgent(first);
    const paused = await pauseOn(first, agentId);
    const approvalId = paused.approvals[0].approvalId as string;

    const listed = await call(second, 'GET', `/v1/agents/${agentId}/approvals?status=pending`);
    assert.deepEqual(
      listed.body.data.map((approval: { id: string }) => approval.id),
      [approvalId],
    );
    fake.enqueue({ reply: 'It is 42.' });
    const decided = await call(second, 'POST', `/v1/agents/${agentId}/approvals/${approvalId}`, {
      decision: 'approve',
    });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    const resumed = await resumedOn(first, agentId, decided.body.resumedRunId);
    assert.equal(resumed.status, 'completed', JSON.stringify(resumed.error));
    assert.equal(resumed.reply.text, 'It is 42.');
    assert.deepEqual(resumed.reply.toolCalls[0].output, { expression: '6*7', result: '42' });
    // The tool ran once, on the deciding instance, and the model was given its result.
    assert.equal(fake.requests.length, 2);
    assert.match(fake.requests[1]!.toolResults[0]!.content, /42/);

    // The resumed run's events are readable on the instance that paused, too.
    const response = await fetch(`${first.url}/v1/agents/${agentId}/runs/${resumed.id}/events`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const events = await readEvents(response.body!).rest();
    assert.equal(events[0]?.event, 'message.started');
    assert.equal(events.at(-1)?.event, 'message.completed');

    const again = await call(first, 'POST', `/v1/agents/${agentId}/approvals/${approvalId}`, { decision: 'deny' });
    assert.equal(again.status, 409);
    const run = await call(first, 'GET', `/v1/agents/${agentId}/runs/${paused.runId}`);
    assert.equal(run.body.status, 'completed');
  });

  it('keeps a pending approval across a restart of the instance that paused', async () => {
    const environmentOfRestarted = instanceEnvironment();
    let restarted = await startServer(environmentOfRestarted, 60_000);
    try {
      const agentId = await newAgent(restarted);
      const paused = await pauseOn(restarted, agentId);
      await restarted.stop('SIGTERM');
      restarted = await startServer(environmentOfRestarted, 60_000);

      const pending = await call(restarted, 'GET', `/v1/agents/${agentId}/approvals/${paused.approvals[0].approvalId}`);
      assert.equal(pending.body.status, 'pending');
      assert.equal((await call(restarted, 'GET', `/v1/agents/${agentId}/runs/${paused.runId}`)).body.status, 'waiting');
      fake.enqueue({ reply: 'I will not calculate it, then.' });
      const decided = await call(
        restarted,
        'POST',
        `/v1/agents/${agentId}/approvals/${paused.approvals[0].approvalId}`,
        {
          decision: 'deny',
          reason: 'do it by hand',
        },
      );
      assert.equal(decided.status, 200, JSON.stringify(decided.body));
      const resumed = await resumedOn(restarted, agentId, decided.body.resumedRunId);
      assert.equal(resumed.reply.text, 'I will not calculate it, then.');
      assert.equal(resumed.reply.toolCalls[0].approval.status, 'denied');
      assert.equal(resumed.reply.toolCalls[0].output, undefined, 'the tool never ran');
      assert.match(fake.requests.at(-1)!.toolResults[0]!.content, /do it by hand/);
    } finally {
      await restarted.stop('SIGKILL');
    }
  });
});

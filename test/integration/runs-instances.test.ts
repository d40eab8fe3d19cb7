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
import { deltaText, readEvents, type ReceivedEvent } from '../helpers/sse-client.js';
import { eventually } from '../helpers/wait.js';

/**
 * Runs across two real `agentd serve` processes on one PostgreSQL and one
 * Redis: a run produced by one instance is read, resumed and cancelled on the
 * other, and a run whose instance is killed ends as failed within the
 * documented bound (AGENTD_RUN_STALE_MS plus one heartbeat).
 */
const skip = postgresSkip || redisSkip;
const heartbeatMs = 200;
const staleMs = 1_000;

describe('runs on two instances', { skip }, () => {
  const key = generateApiKey();
  const redisPrefix = randomRedisPrefix();
  const dataDirs: string[] = [];
  let database: FreshDatabase;
  let fake: FakeProviderServer;
  let environment: Record<string, string>;
  let first: ServerProcess;
  let second: ServerProcess;

  function instanceEnvironment(): Record<string, string> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-runs-'));
    dataDirs.push(dataDir);
    return { ...environment, AGENTD_DATA_DIR: dataDir };
  }

  const call = (server: ServerProcess, method: string, url: string, body?: unknown) =>
    callJson(server.url, key, method, url, body);

  async function newAgent(): Promise<string> {
    const created = await call(first, 'POST', '/v1/agents', {
      name: 'Runner',
      model: { provider: 'openai-compatible', name: 'test-model' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.id;
  }

  async function eventsOn(server: ServerProcess, agentId: string, runId: string, lastEventId?: string) {
    const response = await fetch(`${server.url}/v1/agents/${agentId}/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${key}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    });
    assert.equal(response.status, 200);
    return readEvents(response.body!).rest();
  }

  const runOn = async (server: ServerProcess, agentId: string, runId: string) =>
    (await call(server, 'GET', `/v1/agents/${agentId}/runs/${runId}`)).body;

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
      AGENTD_RUN_HEARTBEAT_MS: String(heartbeatMs),
      AGENTD_RUN_STALE_MS: String(staleMs),
      AGENTD_RUN_FLUSH_MS: '50',
      AGENTD_RUN_POLL_MS: '50',
      AGENTD_SHUTDOWN_TIMEOUT_MS: '2000',
    };
    first = await startServer(instanceEnvironment());
    second = await startServer(instanceEnvironment());
  });

  after(async () => {
    await Promise.all([first?.stop('SIGKILL'), second?.stop('SIGKILL')]);
    await fake?.close();
    await database?.drop();
    await removeRedisKeys(redisPrefix);
    for (const directory of dataDirs) fs.rmSync(directory, { recursive: true, force: true });
  });

  beforeEach(() => fake.reset());

  it('resumes on the other instance, with Last-Event-ID, a background stream its client left', async () => {
    const agentId = await newAgent();
    const text = Array.from({ length: 30 }, (_, index) => `word${index}`).join(' ');
    fake.enqueue({ reply: text, tokenDelayMs: 40 });
    const leaving = new AbortController();
    const response = await fetch(`${first.url}/v1/agents/${agentId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'go on', background: true, stream: true }),
      signal: leaving.signal,
    });
    assert.equal(response.status, 200);
    const reader = readEvents(response.body!);
    const seen: ReceivedEvent[] = [];
    while (seen.filter((event) => event.event === 'message.delta').length < 5) {
      const event = await reader.next();
      assert.ok(event, 'the stream goes on');
      seen.push(event);
    }
    leaving.abort();
    const runId = seen[0]?.data.runId as string;

    const rest = await eventsOn(second, agentId, runId, seen.at(-1)?.id);
    const joined = [...seen, ...rest];
    assert.deepEqual(
      joined.map((event) => Number(event.id)),
      joined.map((_, index) => index + 1),
      'every event once, in order',
    );
    assert.equal(joined.at(-1)?.event, 'message.completed');
    assert.equal(deltaText(joined), text);
    assert.equal(joined.at(-1)?.data.text, text);
    const run = await runOn(second, agentId, runId);
    assert.equal(run.status, 'completed');
    assert.equal(run.reply.text, text);
  });

  it('cancels from one instance a run the other produces', async () => {
    const agentId = await newAgent();
    fake.enqueue({ reply: Array.from({ length: 40 }, (_, index) => `w${index}`).join(' '), tokenDelayMs: 100 });
    const started = await call(first, 'POST', `/v1/agents/${agentId}/messages`, { text: 'long', background: true });
    assert.equal(started.status, 202);
    const runId = started.body.id as string;
    await eventually(async () => ((await runOn(second, agentId, runId)).status === 'running' ? true : null), 'running');
    const cancelled = await call(second, 'POST', `/v1/agents/${agentId}/runs/${runId}/cancel`, {});
    assert.equal(cancelled.status, 200);
    assert.ok(cancelled.body.cancelRequestedAt);
    const ended = await eventually(async () => {
      const run = await runOn(second, agentId, runId);
      return run.status === 'running' ? null : run;
    }, 'the run to stop');
    assert.equal(ended.status, 'cancelled');
    assert.equal(ended.reply.finishReason, 'aborted');
    assert.ok(!ended.reply.text.includes('w39'));
  });

  it('ends as failed, within the stale bound, a run whose instance was killed mid-stream', async () => {
    const doomed = await startServer(instanceEnvironment());
    const agentId = await newAgent();
    fake.enqueue({ reply: Array.from({ length: 60 }, (_, index) => `x${index}`).join(' '), tokenDelayMs: 100 });
    const started = await call(doomed, 'POST', `/v1/agents/${agentId}/messages`, { text: 'talk', background: true });
    const runId = started.body.id as string;
    await eventually(async () => ((await runOn(second, agentId, runId)).status === 'running' ? true : null), 'running');
    await fake.waitForRequests(1);
    await doomed.stop('SIGKILL');
    const killedAt = Date.now();
    const ended = await eventually(
      async () => {
        const run = await runOn(second, agentId, runId);
        return run.status === 'running' ? null : run;
      },
      'the orphaned run to end',
      staleMs + heartbeatMs * 10,
    );
    const tookMs = Date.now() - killedAt;
    assert.equal(ended.status, 'failed');
    assert.equal(ended.error.code, 'service_unavailable');
    assert.match(ended.error.detail, /stopped before it ended/);
    assert.ok(tookMs <= staleMs + heartbeatMs * 10, `${tookMs} ms`);
    const events = await eventsOn(first, agentId, runId);
    assert.equal(events.at(-1)?.event, 'message.failed');
    assert.deepEqual(
      events.map((event) => Number(event.id)),
      events.map((_, index) => index + 1),
    );
  });
});

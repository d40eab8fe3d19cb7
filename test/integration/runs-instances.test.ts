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
import { startLoopbackHttpServer } from '../helpers/loopback-http-server.js';

/**
 * Runs across two real `agentd serve` processes on one PostgreSQL and one
 * Redis: a run produced by one instance is read, resumed and cancelled on the
 * other, and a run whose instance is killed is taken over by the other
 * within the documented bound (AGENTD_RUN_STALE_MS plus one heartbeat) and
 * continued from its last completed step.
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
      AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
      // The tests poll a run until it ends, faster than readRuns allows.
      AGENTD_RATE_LIMITS: 'off',
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

  /** The run once it has ended, as the other instance reads it (after a takeover: within 30 s). */
  const endedOn = (server: ServerProcess, agentId: string, runId: string) =>
    eventually(
      async () => {
        const run = await runOn(server, agentId, runId);
        return run.status === 'queued' || run.status === 'running' ? null : run;
      },
      'the run taken over to end',
      30_000,
    );

  /** Kills `doomed` and waits for the other instance to end the run; how long until the takeover asked the model. */
  async function killAndAwait(doomed: ServerProcess, agentId: string, runId: string, asked: number) {
    await doomed.stop('SIGKILL');
    const killedAt = Date.now();
    await fake.waitForRequests(asked);
    const tookMs = Date.now() - killedAt;
    return { ended: await endedOn(second, agentId, runId), tookMs };
  }

  function inOrder(events: ReceivedEvent[]) {
    assert.deepEqual(
      events.map((event) => Number(event.id)),
      events.map((_, index) => index + 1),
      'every event once, in order',
    );
  }

  it('takes over, within the stale bound, a run whose instance was killed mid-stream, and completes it', async () => {
    const doomed = await startServer(instanceEnvironment());
    const agentId = await newAgent();
    const text = Array.from({ length: 60 }, (_, index) => `x${index}`).join(' ');
    fake.enqueue({ reply: text, tokenDelayMs: 100 }, { reply: text, tokenDelayMs: 5 });
    const started = await call(doomed, 'POST', `/v1/agents/${agentId}/messages`, {
      text: 'talk',
      userId: 'ada',
      background: true,
    });
    const runId = started.body.id as string;
    await eventually(async () => ((await runOn(second, agentId, runId)).status === 'running' ? true : null), 'running');
    await fake.waitForRequests(1);
    // Its first step never completed: the run begins again on the other instance.
    const { ended, tookMs } = await killAndAwait(doomed, agentId, runId, 2);
    assert.equal(ended.status, 'completed', JSON.stringify(ended));
    assert.equal(ended.reply.text, text);
    assert.ok(tookMs <= staleMs + heartbeatMs * 10, `${tookMs} ms`);
    const events = await eventsOn(first, agentId, runId);
    inOrder(events);
    const resumed = events.find((event) => event.event === 'run.resumed');
    assert.ok(resumed, 'readers are told the run was taken over');
    assert.equal(resumed.data.text, '');
    assert.equal(events.at(-1)?.event, 'message.completed');
    assert.equal(events.at(-1)?.data.text, text);
    const messages = await call(second, 'GET', `/v1/agents/${agentId}/messages?userId=ada&limit=10`);
    assert.equal(messages.status, 200);
    assert.equal(
      messages.body.data.filter((message: { text: string }) => message.text === text).length,
      1,
      'the reply is stored once',
    );
  });

  it('ends failed, after the events it stored, a run taken over whose agent was paused meanwhile', async () => {
    const doomed = await startServer(instanceEnvironment());
    const agentId = await newAgent();
    fake.enqueue({ reply: Array.from({ length: 60 }, (_, index) => `z${index}`).join(' '), tokenDelayMs: 100 });
    const started = await call(doomed, 'POST', `/v1/agents/${agentId}/messages`, { text: 'talk', background: true });
    const runId = started.body.id as string;
    // Some of its events are stored (the other instance reads them) before its instance dies.
    const reading = new AbortController();
    const response = await fetch(`${second.url}/v1/agents/${agentId}/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${key}` },
      signal: reading.signal,
    });
    const reader = readEvents(response.body!);
    for (let deltas = 0; deltas < 3;) {
      const event = await reader.next();
      assert.ok(event, 'the stream goes on');
      if (event.event === 'message.delta') deltas += 1;
    }
    reading.abort();
    const paused = await call(second, 'PATCH', `/v1/agents/${agentId}`, { status: 'inactive' });
    assert.equal(paused.status, 200);
    await doomed.stop('SIGKILL');
    const ended = await endedOn(second, agentId, runId);
    assert.equal(ended.status, 'failed', JSON.stringify(ended));
    assert.equal(ended.error.code, 'agent_unavailable');
    const events = await eventsOn(second, agentId, runId);
    inOrder(events);
    assert.ok(events.filter((event) => event.event === 'message.delta').length >= 3, 'what it said is kept');
    assert.equal(events.at(-1)?.event, 'message.failed');
    assert.equal(events.at(-1)?.data.error.code, 'agent_unavailable');
    assert.equal(ended.eventCount, events.length);
  });

  it('goes on from the last completed step: the tool that ran is not run again, the step done not asked again', async () => {
    const posts = await startLoopbackHttpServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('{"ok":true}');
    });
    try {
      const doomed = await startServer(instanceEnvironment());
      const created = await call(doomed, 'POST', '/v1/agents', {
        name: 'Poster',
        model: { provider: 'openai-compatible', name: 'test-model' },
        plugins: [{ name: 'http' }],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const agentId = created.body.id as string;
      const answer = Array.from({ length: 60 }, (_, index) => `y${index}`).join(' ');
      fake.enqueue(
        { toolCalls: [{ name: 'fetch_url', input: { url: `${posts.origin}/orders`, method: 'POST', body: 'one' } }] },
        { reply: answer, tokenDelayMs: 100 },
        { reply: answer, tokenDelayMs: 5 },
      );
      const started = await call(doomed, 'POST', `/v1/agents/${agentId}/messages`, {
        text: 'order one',
        background: true,
      });
      const runId = started.body.id as string;
      await fake.waitForRequests(2);
      const { ended } = await killAndAwait(doomed, agentId, runId, 3);
      assert.equal(ended.status, 'completed', JSON.stringify(ended));
      assert.equal(ended.reply.text, answer);
      assert.equal(posts.received.length, 1, 'the POST ran once');
      assert.equal(fake.requests.length, 3, 'the step that asked for the tool was not asked again');
      assert.equal(ended.reply.toolCalls.length, 1);
      assert.equal(ended.reply.toolCalls[0].error, undefined, JSON.stringify(ended.reply.toolCalls[0]));
      const events = await eventsOn(second, agentId, runId);
      inOrder(events);
      assert.equal(events.find((event) => event.event === 'run.resumed')?.data.completedSteps, 1);
    } finally {
      await posts.close();
    }
  });

  it('never repeats a call with side effects whose end was lost: the model is told its outcome is unknown', async () => {
    let release: (() => void) | null = null;
    const posts = await startLoopbackHttpServer((_request, response) => {
      // Held until the instance running the call is killed.
      release = () => {
        response.setHeader('content-type', 'application/json');
        response.end('{"ok":true}');
      };
    });
    try {
      const doomed = await startServer(instanceEnvironment());
      const created = await call(doomed, 'POST', '/v1/agents', {
        name: 'Payer',
        model: { provider: 'openai-compatible', name: 'test-model' },
        plugins: [{ name: 'http' }],
      });
      const agentId = created.body.id as string;
      fake.enqueue(
        { toolCalls: [{ name: 'fetch_url', input: { url: `${posts.origin}/pay`, method: 'POST', body: 'ten' } }] },
        { reply: 'I could not tell whether it was paid.' },
      );
      const started = await call(doomed, 'POST', `/v1/agents/${agentId}/messages`, { text: 'pay', background: true });
      const runId = started.body.id as string;
      await eventually(async () => (posts.received.length === 1 ? true : null), 'the POST to begin', 10_000);
      const { ended } = await killAndAwait(doomed, agentId, runId, 2);
      (release as (() => void) | null)?.();
      assert.equal(ended.status, 'completed', JSON.stringify(ended));
      assert.equal(posts.received.length, 1, 'the POST was not sent again');
      assert.match(ended.reply.toolCalls[0].error, /outcome of this call is unknown/);
      const second = fake.requests[1];
      assert.ok(JSON.stringify(second?.body).includes('outcome of this call is unknown'), 'the model read it');
    } finally {
      await posts.close();
    }
  });
});

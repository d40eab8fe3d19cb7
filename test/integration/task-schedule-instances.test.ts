import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { callJson } from '../helpers/call-json.js';
import { postgresSkip, redisSkip, redisUrl } from '../helpers/environment.js';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram-server.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';
import { randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Two `agentd serve` processes on one PostgreSQL and one Redis, both claiming
 * due tasks every 250 ms, with a task due every 2 seconds (the operator's
 * minimum lowered for the test) for about 40 seconds: each due time runs
 * exactly once over the two, none while the agent is inactive, and a task
 * whose output is a Telegram chat posts there once per due time.
 */
const skip = postgresSkip || redisSkip;
const intervalMs = 2_000;
const botToken = '424242:task-schedule-bot-token';
const chatId = -1009876;
/** A claim that had begun when the agent was made inactive may commit a moment after the change. */
const claimInFlightMs = 500;

interface RunRecord {
  task_id: string;
  due_at: string;
  status: string;
  error: string | null;
  instance_id: string | null;
  created_at: string;
}

describe('tasks on two instances', { skip }, () => {
  const owner = { key: generateApiKey() };
  const redisPrefix = randomRedisPrefix();
  const dataDirs: string[] = [];
  let database: FreshDatabase;
  let telegram: FakeTelegram;
  let instances: ServerProcess[] = [];
  let reader: pg.Client;

  before(async () => {
    database = await createFreshDatabase();
    telegram = await startFakeTelegram();
    telegram.addBot(botToken, 'task_bot');
    const environment = {
      DATABASE_URL: database.url,
      AGENTD_DATABASE_POOL_SIZE: '4',
      REDIS_URL: redisUrl as string,
      AGENTD_REDIS_PREFIX: redisPrefix,
      AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
      AGENTD_BOOTSTRAP_KEY: owner.key,
      AGENTD_TASK_MIN_INTERVAL_SECONDS: '2',
      AGENTD_TASK_TICK_MS: '250',
      AGENTD_BUILTIN_WORD_DELAY_MS: '0',
      AGENTD_TELEGRAM_API_URL: telegram.apiRoot,
      AGENTD_PLATFORM_LEASE_MS: '2000',
    };
    const withDataDir = () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-tasks-'));
      dataDirs.push(dataDir);
      return { ...environment, AGENTD_DATA_DIR: dataDir };
    };
    // One after the other, with time to spare: on a busy machine two cold starts at once can take long.
    instances = [await startServer(withDataDir(), 60_000)];
    instances.push(await startServer(withDataDir(), 60_000));
    reader = new pg.Client({ connectionString: database.url });
    await reader.connect();
  });

  after(async () => {
    await reader?.end();
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    await telegram?.close();
    await database?.drop();
    await removeRedisKeys(redisPrefix);
    for (const directory of dataDirs) fs.rmSync(directory, { recursive: true, force: true });
  });

  const call = (instance: ServerProcess, method: string, url: string, body?: unknown) =>
    callJson(instance.url, owner.key, method, url, body);

  async function runsOf(taskId: string): Promise<RunRecord[]> {
    const result = await reader.query<RunRecord>(
      'select task_id, due_at, status, error, instance_id, created_at from runs where task_id = $1 order by due_at',
      [taskId],
    );
    return result.rows;
  }

  const completedAfter = async (taskId: string, after: number) =>
    (await runsOf(taskId)).filter((run) => run.status === 'completed' && Date.parse(run.due_at) > after).length;

  it('runs every due time exactly once over both, none while the agent is inactive, and posts once per due time', async () => {
    const [first, second] = instances as [ServerProcess, ServerProcess];
    const agent = await call(first, 'POST', '/v1/agents', {
      name: 'Clockwork',
      platforms: [{ type: 'telegram', secrets: { botToken } }],
    });
    assert.equal(agent.status, 201, JSON.stringify(agent.body));
    const agentId = agent.body.id as string;
    const kept = await call(first, 'POST', `/v1/agents/${agentId}/tasks`, {
      name: 'Heartbeat',
      instructions: 'Say the time.',
      schedule: { everySeconds: 2 },
    });
    assert.equal(kept.status, 201, JSON.stringify(kept.body));
    const posted = await call(second, 'POST', `/v1/agents/${agentId}/tasks`, {
      name: 'Channel post',
      instructions: 'Post the news.',
      schedule: { everySeconds: 2 },
      output: { type: 'platform', platform: 'telegram', target: String(chatId) },
    });
    assert.equal(posted.status, 201, JSON.stringify(posted.body));
    const taskIds = [kept.body.id as string, posted.body.id as string];
    const startedAt = Date.now();

    // About 14 s active…
    assert.notEqual(await waitFor(async () => (await completedAfter(taskIds[0]!, 0)) >= 7, 30_000, 200), null);
    // …then about 8 s inactive: the scenario itself lasts this long, nothing waits on it.
    const inactiveAt = Date.now();
    assert.equal((await call(second, 'PATCH', `/v1/agents/${agentId}`, { status: 'inactive' })).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 4 * intervalMs));
    const activeAt = Date.now();
    assert.equal((await call(first, 'PATCH', `/v1/agents/${agentId}`, { status: 'active' })).status, 200);
    // …then about 16 s active again.
    assert.notEqual(await waitFor(async () => (await completedAfter(taskIds[0]!, activeAt)) >= 8, 40_000, 200), null);
    for (const taskId of taskIds) {
      assert.equal(
        (await call(first, 'PATCH', `/v1/agents/${agentId}/tasks/${taskId}`, { enabled: false })).status,
        200,
      );
    }
    const settled = await waitFor(
      async () => {
        const pending = await reader.query(
          "select count(*)::int as count from runs where task_id = any($1) and status in ('queued', 'running')",
          [taskIds],
        );
        return pending.rows[0].count === 0;
      },
      20_000,
      100,
    );
    assert.notEqual(settled, null, 'every run ended');
    const elapsedMs = Date.now() - startedAt;
    assert.ok(elapsedMs >= 35_000, `ran for ${elapsedMs} ms`);

    for (const taskId of taskIds) {
      const runs = await runsOf(taskId);
      const dueTimes = runs.map((run) => Date.parse(run.due_at));
      assert.equal(new Set(dueTimes).size, runs.length, 'no due time has two runs');
      // A due time claimed just before the agent was made inactive, whose run had not begun yet, is skipped then.
      const notCompleted = runs.filter((run) => run.status !== 'completed');
      for (const run of notCompleted) {
        assert.equal(run.status, 'skipped', `${run.due_at} completed or was skipped`);
        assert.match(run.error ?? '', /is inactive/, `${run.due_at} was skipped only because the agent was inactive`);
        assert.ok(Date.parse(run.created_at) < inactiveAt + claimInFlightMs, `${run.due_at} was claimed before`);
      }
      assert.ok(notCompleted.length <= 1, `${notCompleted.length} runs skipped as the agent was made inactive`);
      // Due times are the first one plus whole intervals: every one is there, except while inactive.
      const firstDue = dueTimes[0]!;
      const lastDue = dueTimes.at(-1)!;
      const present = new Set(dueTimes);
      for (let due = firstDue; due <= lastDue; due += intervalMs) {
        // A due time within a tick of a status change may have been claimed on either side of it.
        const margin = 1_000;
        if (due < inactiveAt - margin || due > activeAt + margin) {
          assert.ok(present.has(due), `${new Date(due).toISOString()} ran`);
        } else if (due > inactiveAt + margin && due < activeAt - margin) {
          assert.ok(!present.has(due), `${new Date(due).toISOString()} did not run while the agent was inactive`);
        }
      }
      const createdWhileInactive = runs.filter((run) => {
        const created = Date.parse(run.created_at);
        return created > inactiveAt + claimInFlightMs && created < activeAt;
      });
      assert.deepEqual(createdWhileInactive, [], 'no run was claimed while the agent was inactive');
      assert.ok(runs.length >= 10, `${runs.length} runs of ${taskId}`);
      const producers = new Set(runs.map((run) => run.instance_id));
      process.stdout.write(`# ${taskId}: ${runs.length} runs, produced by ${producers.size} instance(s)\n`);
    }

    const postedRuns = await runsOf(taskIds[1]!);
    // A run whose reply was ready just as the agent was made inactive is not posted: the post is refused and the
    // task records the failure (logged as "task run failed"). Only runs due before the change may be refused.
    const refused = instances
      .flatMap((instance) => instance.output().split('\n'))
      .filter((line) => line.includes('"task run failed"') && line.endsWith('}'))
      .map((line) => JSON.parse(line) as { taskId: string; runId: string; error: string })
      .filter((line) => line.taskId === taskIds[1]);
    for (const failure of refused) {
      assert.match(failure.error, /the agent is inactive/, 'a post is refused only while the agent is inactive');
    }
    const refusedRuns = await reader.query<{ due_at: string }>('select due_at from runs where id = any($1)', [
      refused.map((failure) => failure.runId),
    ]);
    assert.equal(refusedRuns.rows.length, refused.length);
    for (const run of refusedRuns.rows) {
      assert.ok(Date.parse(run.due_at) < inactiveAt + claimInFlightMs, `${run.due_at} was due before the change`);
    }
    const expectedPosts = postedRuns.filter((run) => run.status === 'completed').length - refused.length;
    // A run ends before its reply is posted: the last posts may still be on their way.
    await waitFor(() => telegram.sentTo(botToken, chatId).length >= expectedPosts, 10_000);
    const sent = telegram.sentTo(botToken, chatId);
    assert.equal(sent.length, expectedPosts, `one post per due time (${refused.length} refused while inactive)`);
    assert.ok(refused.length <= 2, `${refused.length} posts refused`);
    assert.ok(
      sent.every((text) => /Post the news/.test(text)),
      sent[0],
    );
  });
});

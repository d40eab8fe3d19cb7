import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, ManualClock, type TestApp } from '../helpers/test-app.js';

/**
 * The scheduler's policies against one in-process instance whose clock the
 * test moves: missed due times, agents that are not active, the pause after
 * failed runs. Claims are made by calling the scheduler's tick, as its timer
 * would.
 */
describe('the task scheduler', () => {
  let t: TestApp;
  const clock = new ManualClock(Date.parse('2026-06-01T09:00:00.000Z'));
  before(async () => {
    // Deliveries stay in the log: no dispatcher is needed to see which events were written.
    t = await createTestApp({ clock, env: { AGENTD_WEBHOOK_DELIVERY: 'off' } });
  });
  after(async () => t?.close());

  async function newTask(agentId: string, payload: Record<string, unknown>) {
    const response = await t.inject({ method: 'POST', url: `/v1/agents/${agentId}/tasks`, payload });
    assert.equal(response.statusCode, 201, response.body);
    return response.json();
  }

  async function runsOf(agentId: string, taskId: string) {
    const rows = await t.deps.services.repositories.runs.page({
      accountId: t.owner.accountId,
      agentId,
      taskId,
      limit: 1000,
    });
    return rows.reverse();
  }

  async function tick(): Promise<number> {
    const started = await t.deps.tasks.tick();
    await t.deps.tasks.settled();
    return started;
  }

  async function taskOf(agentId: string, taskId: string) {
    return (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/tasks/${taskId}` })).json();
  }

  it('runs the latest of the due times missed while no instance ran, once, and records the others as skipped', async () => {
    const agent = await t.newAgent({ name: 'Sleeper' });
    const created = clock.now();
    const task = await newTask(agent.id, { name: 'Minutely', instructions: 'Tick.', schedule: { everySeconds: 60 } });
    assert.equal(await tick(), 0, 'nothing is due yet');

    // Every instance was down for ten and a half minutes.
    clock.advance(10 * 60_000 + 30_000);
    assert.equal(await tick(), 1, 'one run at start');
    assert.equal(await tick(), 0, 'and never twice');
    const runs = await runsOf(agent.id, task.id);
    const minute = (index: number) => new Date(created + index * 60_000).toISOString();
    assert.deepEqual(
      runs.map((run) => [run.due_at, run.status]),
      [...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((index) => [minute(index), 'skipped']), [minute(10), 'completed']],
    );
    const after = await taskOf(agent.id, task.id);
    assert.equal(after.nextDueAt, minute(11));
    assert.equal(after.lastRunStatus, 'completed');

    // A due time claimed a few seconds late (a slow tick) is not missed: it runs.
    clock.advance(60_000 + 4_000);
    assert.equal(await tick(), 1);
    assert.deepEqual((await runsOf(agent.id, task.id)).at(-1)?.status, 'completed');
    await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}/tasks/${task.id}` });
  });

  it('passes the due times of an agent that is not active without running or recording them', async () => {
    const agent = await t.newAgent({ name: 'Napper' });
    const task = await newTask(agent.id, { name: 'Minutely', instructions: 'Tick.', schedule: { everySeconds: 60 } });
    await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'inactive' } });
    for (let minute = 0; minute < 3; minute += 1) {
      clock.advance(60_000);
      assert.equal(await tick(), 0);
    }
    assert.deepEqual(await runsOf(agent.id, task.id), []);
    const moved = await taskOf(agent.id, task.id);
    assert.ok(Date.parse(moved.nextDueAt) > clock.now(), 'the due time moved on');

    await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'active' } });
    clock.advance(60_000);
    assert.equal(await tick(), 1, 'the first due time after it is active again runs');
    const runs = await runsOf(agent.id, task.id);
    assert.equal(runs.length, 1);
    assert.equal(runs[0]?.due_at, moved.nextDueAt);

    await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}/tasks/${task.id}`, payload: { enabled: false } });
    clock.advance(5 * 60_000);
    assert.equal(await tick(), 0, 'a disabled task does not run');
  });

  it('skips a claimed due time whose agent was made inactive before its run began, counting it neither way', async () => {
    const webhook = await t.inject({
      method: 'POST',
      url: '/v1/webhooks',
      payload: { url: 'https://hooks.invalid/agentd-skips', events: ['task.failed'] },
    });
    assert.equal(webhook.statusCode, 201, webhook.body);
    const agent = await t.newAgent({ name: 'Dozer' });
    const task = await newTask(agent.id, { name: 'Minutely', instructions: 'Tick.', schedule: { everySeconds: 60 } });
    clock.advance(60_000);
    // Claimed while the agent was active; its owner pauses the agent before the run begins.
    const orders = await t.deps.tasks.claim(clock.now(), 10);
    assert.deepEqual(
      orders.map((order) => order.taskId),
      [task.id],
    );
    await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'inactive' } });
    for (const order of orders) t.deps.tasks.launch(order);
    await t.deps.tasks.settled();

    const [run] = await runsOf(agent.id, task.id);
    assert.equal(run?.status, 'skipped');
    assert.equal(run?.event_count, 0);
    assert.match(JSON.parse(run?.error ?? '{}').detail, /is inactive \(paused by its owner\)/);
    const after = await taskOf(agent.id, task.id);
    assert.deepEqual([after.lastRunStatus, after.consecutiveFailures, after.lastError], ['skipped', 0, null]);
    const trail = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/events` })).json().data;
    assert.deepEqual(
      trail.filter((event: any) => event.type.startsWith('run.')),
      [],
    );
    const deliveries = (
      await t.inject({ method: 'GET', url: `/v1/webhooks/${webhook.json().id}/deliveries?limit=100` })
    ).json().data;
    assert.deepEqual(
      deliveries.map((delivery: any) => delivery.eventType),
      [],
      'no task.failed',
    );

    // A run started now (no due time) that meets a paused agent fails, as a background message does.
    await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'active' } });
    clock.advance(60_000);
    const [next] = await t.deps.tasks.claim(clock.now(), 10);
    assert.ok(next);
    await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'inactive' } });
    t.deps.tasks.launch({ ...next, dueAt: null });
    await t.deps.tasks.settled();
    assert.equal((await runsOf(agent.id, task.id)).at(-1)?.status, 'failed');
    assert.equal((await taskOf(agent.id, task.id)).consecutiveFailures, 1);
    await t.inject({ method: 'DELETE', url: `/v1/webhooks/${webhook.json().id}` });
  });

  it('runs a one-off task once, also when its time had passed', async () => {
    const agent = await t.newAgent({ name: 'Once' });
    const task = await newTask(agent.id, {
      name: 'Reminder',
      instructions: 'Remind me.',
      schedule: { at: new Date(clock.now() - 3_600_000).toISOString() },
    });
    assert.equal(await tick(), 1);
    clock.advance(3_600_000);
    assert.equal(await tick(), 0);
    assert.equal((await runsOf(agent.id, task.id)).length, 1);
    assert.equal((await taskOf(agent.id, task.id)).nextDueAt, null);
  });

  it('pauses a task after 3 failed runs in a row, in the trail, webhooks and metrics', async () => {
    const webhook = await t.inject({
      method: 'POST',
      url: '/v1/webhooks',
      payload: { url: 'https://hooks.invalid/agentd', events: ['task.failed', 'task.paused'] },
    });
    assert.equal(webhook.statusCode, 201, webhook.body);
    // The Telegram API of the test app is a closed port: every post of the reply fails.
    const agent = await t.newAgent({
      name: 'Poster',
      platforms: [{ type: 'telegram', secrets: { botToken: '123:token-of-the-poster' } }],
    });
    const task = await newTask(agent.id, {
      name: 'Post',
      instructions: 'Post the news.',
      schedule: { everySeconds: 60 },
      output: { type: 'platform', platform: 'telegram', target: '-1001234' },
    });
    for (let run = 1; run <= 3; run += 1) {
      clock.advance(60_000);
      assert.equal(await tick(), 1);
      const current = await taskOf(agent.id, task.id);
      assert.equal(current.consecutiveFailures, run);
      assert.match(current.lastError, /could not be posted to telegram -1001234/);
      assert.equal(current.lastRunStatus, 'completed', 'the run itself completed; its output failed');
    }
    const paused = await taskOf(agent.id, task.id);
    assert.equal(paused.enabled, false);
    assert.equal(paused.nextDueAt, null);
    assert.match(paused.pausedReason, /^Paused after 3 failed runs in a row; the last: The reply could not be posted/);
    assert.doesNotMatch(paused.pausedReason, /token-of-the-poster/);
    clock.advance(5 * 60_000);
    assert.equal(await tick(), 0, 'a paused task does not run');

    const trail = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/events` })).json().data;
    const pausedEvent = trail.find((event: any) => event.type === 'task.paused');
    assert.deepEqual(
      { ...pausedEvent.data, reason: undefined },
      { taskId: task.id, name: 'Post', reason: undefined, consecutiveFailures: 3 },
    );
    assert.equal(pausedEvent.actor, 'service');
    const deliveries = (
      await t.inject({ method: 'GET', url: `/v1/webhooks/${webhook.json().id}/deliveries?limit=100` })
    ).json().data;
    assert.deepEqual(deliveries.map((delivery: any) => delivery.eventType).sort(), [
      'task.failed',
      'task.failed',
      'task.failed',
      'task.paused',
    ]);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.match(metrics.body, /^agentd_tasks_paused_total 1$/m);
    assert.match(metrics.body, /^agentd_task_runs_total\{outcome="completed"\} \d+$/m);

    const resumed = await t.inject({
      method: 'PATCH',
      url: `/v1/agents/${agent.id}/tasks/${task.id}`,
      payload: { enabled: true },
    });
    assert.deepEqual(
      [resumed.json().enabled, resumed.json().pausedReason, resumed.json().consecutiveFailures],
      [true, null, 0],
    );
    assert.equal(resumed.json().nextDueAt, new Date(clock.now() + 60_000).toISOString());
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

const hourly = { name: 'Morning summary', instructions: 'Summarise the market.', schedule: { everySeconds: 3600 } };

for (const backend of backends) {
  describe(`tasks on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
    });
    after(async () => t?.close());

    async function create(agentId: string, payload: Record<string, unknown>) {
      return t.inject({ method: 'POST', url: `/v1/agents/${agentId}/tasks`, payload });
    }

    async function taskCount(agentId: string): Promise<number> {
      const response = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/tasks?limit=100` });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().data.length;
    }

    it('creates, reads, lists in pages, changes and deletes tasks', async () => {
      const agent = await t.newAgent({ name: 'Scheduler' });
      const before = Date.now();
      const created = await create(agent.id, hourly);
      assert.equal(created.statusCode, 201, created.body);
      const task = created.json();
      assert.match(task.id, /^tsk_/);
      assert.equal(created.headers.location, `/v1/agents/${agent.id}/tasks/${task.id}`);
      assert.deepEqual(
        {
          name: task.name,
          schedule: task.schedule,
          output: task.output,
          enabled: task.enabled,
          pausedReason: task.pausedReason,
          lastRunAt: task.lastRunAt,
          lastRunStatus: task.lastRunStatus,
          consecutiveFailures: task.consecutiveFailures,
        },
        {
          name: 'Morning summary',
          schedule: { everySeconds: 3600 },
          output: { type: 'none' },
          enabled: true,
          pausedReason: null,
          lastRunAt: null,
          lastRunStatus: null,
          consecutiveFailures: 0,
        },
      );
      const due = Date.parse(task.nextDueAt);
      assert.ok(due >= before + 3_600_000 && due <= Date.now() + 3_600_000, task.nextDueAt);

      const read = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/tasks/${task.id}` });
      assert.equal(read.statusCode, 200);
      assert.deepEqual(read.json(), task);

      const cron = await create(agent.id, {
        name: 'Weekdays',
        instructions: 'Check the wallet.',
        schedule: { cron: '0 8 * * 1-5', timezone: 'Europe/Berlin' },
        output: { type: 'webhook' },
      });
      assert.equal(cron.statusCode, 201, cron.body);
      const berlin = new Date(cron.json().nextDueAt);
      assert.equal(
        berlin.toLocaleString('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }),
        '08:00',
      );
      const once = await create(agent.id, {
        name: 'Once',
        instructions: 'Say hello.',
        schedule: { at: '2031-05-01T09:30:00+02:00' },
        enabled: false,
      });
      assert.equal(once.statusCode, 201, once.body);
      assert.deepEqual(once.json().schedule, { at: '2031-05-01T07:30:00.000Z' });
      assert.equal(once.json().nextDueAt, null, 'a disabled task has no due time');

      const first = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/tasks?limit=2` });
      assert.equal(first.statusCode, 200);
      const page = first.json();
      assert.deepEqual(
        page.data.map((each: any) => each.name),
        ['Once', 'Weekdays'],
      );
      assert.equal(page.pagination.hasMore, true);
      const second = await t.inject({
        method: 'GET',
        url: `/v1/agents/${agent.id}/tasks?limit=2&cursor=${page.pagination.nextCursor}`,
      });
      assert.deepEqual(
        second.json().data.map((each: any) => each.id),
        [task.id],
      );
      assert.equal(second.json().pagination.hasMore, false);

      const enabled = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}/tasks/${once.json().id}`,
        payload: { enabled: true, name: 'Once, enabled' },
      });
      assert.equal(enabled.statusCode, 200, enabled.body);
      assert.equal(enabled.json().nextDueAt, '2031-05-01T07:30:00.000Z');
      assert.equal(enabled.json().name, 'Once, enabled');
      const disabled = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}/tasks/${task.id}`,
        payload: { enabled: false },
      });
      assert.equal(disabled.json().nextDueAt, null);
      const rescheduled = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}/tasks/${cron.json().id}`,
        payload: { schedule: { everySeconds: 120 } },
      });
      assert.equal(rescheduled.statusCode, 200, rescheduled.body);
      assert.ok(Math.abs(Date.parse(rescheduled.json().nextDueAt) - (Date.now() + 120_000)) < 5_000);

      const deleted = await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}/tasks/${task.id}` });
      assert.deepEqual(deleted.json(), { id: task.id, deleted: true });
      assert.equal((await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/tasks/${task.id}` })).statusCode, 404);
      assert.equal(
        (await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}/tasks/${task.id}` })).statusCode,
        404,
      );
    });

    it('refuses bad schedules and outputs with a pointer, and stores nothing', async () => {
      const agent = await t.newAgent({
        name: 'Picky',
        platforms: [{ type: 'telegram', secrets: { botToken: '123:telegram-token-of-picky' } }],
      });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ...hourly, schedule: { cron: '61 8 * * *' } }, '/body/schedule/cron'],
        [{ ...hourly, schedule: { cron: 'every morning' } }, '/body/schedule/cron'],
        [{ ...hourly, schedule: { cron: '0 0 8 * * *' } }, '/body/schedule/cron'],
        [{ ...hourly, schedule: { cron: '0 8 * * *', timezone: 'Mars/Olympus_Mons' } }, '/body/schedule/timezone'],
        [{ ...hourly, schedule: { everySeconds: 59 } }, '/body/schedule/everySeconds'],
        [{ ...hourly, schedule: { at: 'tomorrow at eight' } }, '/body/schedule/at'],
        [{ ...hourly, schedule: { at: '2030-02-30T08:00:00Z' } }, '/body/schedule/at'],
        [{ ...hourly, schedule: { at: '2030-01-31T08:00:00' } }, '/body/schedule/at'],
        [{ ...hourly, output: { type: 'platform', platform: 'slack', target: 'C123' } }, '/body/output/platform'],
      ];
      for (const [payload, pointer] of cases) {
        const response = await create(agent.id, payload);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
        const problem = response.json();
        assert.equal(problem.code, 'validation_failed');
        assert.ok(
          problem.errors.some((error: any) => error.path === pointer),
          `${JSON.stringify(payload)} → ${JSON.stringify(problem.errors)}`,
        );
      }
      for (const payload of [
        { ...hourly, schedule: { everySeconds: 60, cron: '* * * * *' } },
        { ...hourly, schedule: {} },
        { ...hourly, output: { type: 'email' } },
        { ...hourly, name: '' },
        { name: 'No instructions', schedule: { everySeconds: 60 } },
      ]) {
        const response = await create(agent.id, payload);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
        assert.ok(response.json().errors.length > 0);
      }
      assert.equal(await taskCount(agent.id), 0, 'nothing was stored');

      const ok = await create(agent.id, {
        ...hourly,
        output: { type: 'platform', platform: 'telegram', target: '-100123' },
      });
      assert.equal(ok.statusCode, 201, ok.body);
      const patched = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}/tasks/${ok.json().id}`,
        payload: { schedule: { everySeconds: 10 }, name: 'Changed' },
      });
      assert.equal(patched.statusCode, 400);
      assert.equal(patched.json().errors[0].path, '/body/schedule/everySeconds');
      const unchanged = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/tasks/${ok.json().id}` });
      assert.deepEqual(unchanged.json(), ok.json(), 'a refused change changes nothing');
    });

    it('runs a task now: 202 with the queued run, which ends with the reply', async () => {
      const agent = await t.newAgent({ name: 'Runner' });
      const task = (await create(agent.id, { ...hourly, instructions: 'Report the weather.' })).json();
      const started = await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/tasks/${task.id}/run` });
      assert.equal(started.statusCode, 202, started.body);
      const run = started.json();
      assert.match(run.id, /^run_/);
      assert.equal(started.headers.location, `/v1/agents/${agent.id}/runs/${run.id}`);
      assert.deepEqual(
        [run.trigger, run.taskId, run.dueAt, run.status, run.background, run.input],
        ['task', task.id, null, 'queued', true, 'Report the weather.'],
      );
      const ended = await eventually(async () => {
        const current = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/tasks/${task.id}` })).json();
        return current.lastRunStatus === null ? null : current;
      }, 'the run to end');
      assert.equal(ended.lastRunStatus, 'completed');
      assert.equal(ended.nextDueAt, task.nextDueAt, 'running now leaves the schedule as it was');
      const stored = await t.deps.services.repositories.runs.findById(run.id);
      assert.equal(stored?.status, 'completed');
      // The builtin model echoes: the reply answers the task's instructions.
      assert.match(JSON.parse(stored?.result ?? '{}').text, /Report the weather/);

      await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'inactive' } });
      const refused = await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/tasks/${task.id}/run` });
      assert.equal(refused.statusCode, 503);
      assert.equal(refused.json().code, 'agent_unavailable');
    });

    it('keeps tasks to their account and scopes, and removes them with their agent', async () => {
      const agent = await t.newAgent({ name: 'Guarded' });
      const task = (await create(agent.id, hourly)).json();
      const stranger = await t.newAccount();
      for (const [method, url] of [
        ['GET', `/v1/agents/${agent.id}/tasks`],
        ['GET', `/v1/agents/${agent.id}/tasks/${task.id}`],
        ['PATCH', `/v1/agents/${agent.id}/tasks/${task.id}`],
        ['DELETE', `/v1/agents/${agent.id}/tasks/${task.id}`],
        ['POST', `/v1/agents/${agent.id}/tasks/${task.id}/run`],
      ] as const) {
        const response = await t.inject({ method, url, as: stranger, ...(method === 'PATCH' ? { payload: {} } : {}) });
        assert.equal(response.statusCode, 404, `${method} ${url}`);
      }
      const strangerAgent = (
        await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Theirs' }, as: stranger })
      ).json();
      const crossed = await t.inject({
        method: 'GET',
        url: `/v1/agents/${strangerAgent.id}/tasks/${task.id}`,
        as: stranger,
      });
      assert.equal(crossed.statusCode, 404, 'a task id under another agent is not found');

      const reader = await t.newKey(t.owner.accountId, ['agents:read']);
      assert.equal(
        (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/tasks`, as: reader })).statusCode,
        200,
      );
      const write = await create(agent.id, hourly).then(() =>
        t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/tasks`, payload: hourly, as: reader }),
      );
      assert.equal(write.statusCode, 403);
      assert.equal(write.json().code, 'insufficient_scope');
      const run = await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/tasks/${task.id}/run`, as: reader });
      assert.equal(run.statusCode, 403);

      assert.equal((await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}` })).statusCode, 200);
      assert.equal(await t.deps.services.repositories.tasks.findById(task.id), null, 'deleted with the agent');
    });
  });
}

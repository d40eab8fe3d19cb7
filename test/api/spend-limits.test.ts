import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends, createTestApp, ManualClock, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';
import { spendEntries } from '../../src/services/spend/spend-periods.js';

/** The builtin model answers every message with some tokens, so a limit of one token is reached by the first. */
const oneTokenADay = { limits: { spend: { tokensPerDay: 1 } } };

for (const backend of backends) {
  describe(`spend limits on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    const clock = new ManualClock(Date.parse('2026-11-22T10:00:00.000Z'));
    before(async () => {
      t = await createTestApp({ backend: backend.name, clock });
    });
    after(async () => t?.close());

    const send = (agentId: string, text = 'Hello') =>
      t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload: { text } });

    it("a message past the agent's daily token limit is refused with budget_exceeded: the limit, the spend and when it resets", async () => {
      const agent = await t.newAgent({ name: 'Frugal', ...oneTokenADay });
      assert.deepEqual(agent.limits.spend, {
        tokensPerDay: 1,
        tokensPerMonth: null,
        costPerDay: null,
        costPerMonth: null,
      });
      const first = await send(agent.id);
      assert.equal(first.statusCode, 200, 'the first message finds the limit not reached yet and is answered whole');
      const used = first.json().usage.totalTokens;
      assert.ok(used > 1);

      const refused = await send(agent.id);
      assert.equal(refused.statusCode, 429, refused.body);
      assert.match(refused.headers['content-type'] as string, /application\/problem\+json/);
      const problem = refused.json();
      assert.equal(problem.code, 'budget_exceeded');
      assert.deepEqual(
        [problem.scope, problem.agentId, problem.unit, problem.period, problem.limit, problem.spent, problem.reserved],
        ['agent', agent.id, 'tokens', 'day', 1, used, 0],
      );
      assert.equal(problem.resetsAt, '2026-11-23T00:00:00.000Z');
      assert.equal(refused.headers['retry-after'], String(14 * 3600));
      assert.match(problem.detail, /1 tokens per UTC day/);
    });

    it('a reached limit shows in the status reason without putting the agent in error, and is reported once per period', async () => {
      const agent = await t.newAgent({ name: 'Reported', ...oneTokenADay });
      assert.equal((await send(agent.id)).statusCode, 200);
      assert.equal((await send(agent.id)).statusCode, 429);
      assert.equal((await send(agent.id)).statusCode, 429);

      const read = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` })).json();
      assert.equal(read.status, 'active');
      assert.match(read.statusReason, /^Spend limit reached: the agent's limit of 1 tokens per UTC day/);

      const events = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/events?limit=100` })).json().data;
      const reported = events.filter((event: { type: string }) => event.type === 'agent.budget_exceeded');
      assert.equal(reported.length, 1, 'two refusals in one period, one event');
      assert.deepEqual(
        [reported[0].data.scope, reported[0].data.unit, reported[0].data.period, reported[0].data.limit],
        ['agent', 'tokens', 'day', 1],
      );

      // The next UTC day the agent answers again, and the reason goes.
      clock.advance(24 * 3600 * 1000);
      assert.equal((await send(agent.id)).statusCode, 200);
      const again = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` })).json();
      assert.equal(again.statusReason, null);
    });

    it('a task due time over a spend limit is skipped with budget_exceeded, not failed', async () => {
      const agent = await t.newAgent({ name: 'Scheduled', ...oneTokenADay });
      assert.equal((await send(agent.id)).statusCode, 200);
      const created = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/tasks`,
        payload: { name: 'Digest', instructions: 'Summarise.', schedule: { everySeconds: 60 } },
      });
      assert.equal(created.statusCode, 201, created.body);
      clock.advance(61_000);
      assert.equal(await t.deps.tasks.tick(), 1);
      await t.deps.tasks.settled();
      const runs = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs?limit=100` })).json().data;
      const taskRuns = runs.filter((run: { trigger: string }) => run.trigger === 'task');
      assert.equal(taskRuns.length, 1);
      assert.equal(taskRuns[0].status, 'skipped');
      assert.equal(taskRuns[0].error.code, 'budget_exceeded');
      const task = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/tasks/${created.json().id}` })).json();
      assert.equal(task.consecutiveFailures ?? 0, 0, 'a skipped due time does not count as a failure');
    });

    it("an account's limit refuses every agent of the account once reached, and needs keys:manage to set", async () => {
      const account = await t.newAccount();
      const reader = await t.newKey(account.accountId, ['agents:read', 'messages:send']);
      const refusedPut = await t.inject({
        method: 'PUT',
        url: '/v1/account/limits',
        as: reader,
        payload: { spend: { tokensPerDay: 1 } },
      });
      assert.equal(refusedPut.statusCode, 403);
      const put = await t.inject({
        method: 'PUT',
        url: '/v1/account/limits',
        as: account,
        payload: { spend: { tokensPerDay: 1 } },
      });
      assert.equal(put.statusCode, 200, put.body);
      assert.equal(put.json().spend.tokensPerDay, 1);
      const read = await t.inject({ method: 'GET', url: '/v1/account/limits', as: account });
      assert.deepEqual(read.json(), put.json());

      const agentOf = async (name: string) =>
        (await t.inject({ method: 'POST', url: '/v1/agents', as: account, payload: { name } })).json();
      const [one, two] = [await agentOf('One'), await agentOf('Two')];
      const sendAs = (agentId: string) =>
        t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, as: account, payload: { text: 'Hi' } });
      assert.equal((await sendAs(one.id)).statusCode, 200);
      const refused = await sendAs(two.id);
      assert.equal(refused.statusCode, 429);
      assert.deepEqual([refused.json().scope, refused.json().agentId], ['account', two.id]);
    });

    it('a reply resumed after its approval is counted against the limits too, and never refused half-way', async () => {
      const agent = await t.newAgent({
        name: 'Careful',
        plugins: [{ name: 'math', approval: { tools: ['calculate'] } }],
        limits: { spend: { tokensPerDay: 1_000_000 } },
      });
      const paused = await send(agent.id, '/tool calculate {"expression": "6*7"}');
      assert.equal(paused.statusCode, 200, paused.body);
      assert.equal(paused.json().finishReason, 'approval_required');
      const pausedTokens = paused.json().usage.totalTokens as number;
      const decided = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/approvals/${paused.json().approvals[0].approvalId}`,
        payload: { decision: 'approve' },
      });
      assert.equal(decided.statusCode, 200, decided.body);
      const resumedRunId = decided.json().resumedRunId as string;
      const resumed = await eventually(async () => {
        const run = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs/${resumedRunId}` })).json();
        return run.status === 'completed' ? run : null;
      }, 'the resumed run');
      const resumedTokens = resumed.reply.usage.totalTokens as number;
      assert.ok(resumedTokens > 0);

      // With the limit lowered, the refusal tells what the day has spent: the paused part and the resumed one.
      await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { limits: { spend: { tokensPerDay: 1 } } },
      });
      const refused = await send(agent.id);
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(refused.json().spent, pausedTokens + resumedTokens);
      assert.equal(refused.json().reserved, 0);
    });

    it('a limit reached only by what replies in flight reserved is refused for a moment, not reported as reached', async () => {
      const agent = await t.newAgent({ name: 'Busy', limits: { spend: { tokensPerDay: 5_000 } } });
      // A reply in flight on some instance has reserved all that is left of the day.
      const now = new Date(clock.now());
      const entries = spendEntries('agent', agent.accountId ?? t.owner.accountId, agent.id, agent.limits.spend, now);
      const held = await t.deps.services.repositories.spendTotals.reserve(
        entries,
        { tokens: 5_000, microUsd: 0 },
        now.toISOString(),
      );
      assert.equal(held.reserved, true);
      const refused = await send(agent.id);
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(refused.json().code, 'budget_exceeded');
      assert.equal(refused.json().spent, 0);
      assert.equal(refused.headers['retry-after'], '2', 'a moment, not the period’s reset');
      assert.match(refused.json().detail, /reserved by replies in flight/);
      const after = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` })).json();
      assert.equal(after.statusReason, null, 'nothing was spent: the limit is not reached');
      const events = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/events?limit=100` })).json().data;
      assert.equal(events.filter((event: { type: string }) => event.type === 'agent.budget_exceeded').length, 0);
    });

    it('limits: null in a PATCH removes every spend limit of the agent', async () => {
      const agent = await t.newAgent({ name: 'Freed', limits: { spend: { tokensPerDay: 100, costPerMonth: 5 } } });
      const patched = await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { limits: null } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(patched.json().limits.spend, {
        tokensPerDay: null,
        tokensPerMonth: null,
        costPerDay: null,
        costPerMonth: null,
      });
    });

    it('limits merge in a PATCH, null removes one, and a bad limit is a 400 at its pointer', async () => {
      const agent = await t.newAgent({ name: 'Patched', limits: { spend: { tokensPerDay: 100, costPerMonth: 5 } } });
      const patched = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { limits: { spend: { tokensPerDay: null, tokensPerMonth: 1000 } } },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(patched.json().limits.spend, {
        tokensPerDay: null,
        tokensPerMonth: 1000,
        costPerDay: null,
        costPerMonth: 5,
      });
      const bad = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { limits: { spend: { tokensPerDay: 0 } } },
      });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().errors[0].path, '/body/limits/spend/tokensPerDay');
    });
  });
}

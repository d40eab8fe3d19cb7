import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { bankPlugin } from '../helpers/bank-plugin.js';
import { startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { readEvents } from '../helpers/sse-client.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * Approvals end to end with the fake provider: a call of a tool marked
 * `approval` pauses the run (its reply ends `approval_required`, the run
 * waits), the approval is listed, and a decision resumes the reply in a new
 * run: approved, the tool runs once and the model goes on; denied or expired,
 * the tool never runs and the model is told so.
 */

/** What the tools of this file did, per test: each `transfer` run, with its input. */
const transfers: unknown[] = [];
const bank = bankPlugin(transfers);

for (const backend of backends) {
  describe(`approvals on ${backend.name}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    let base: string;
    before(async () => {
      fake = await startFakeOpenAiServer();
      t = await createTestApp({
        backend: backend.name,
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
          AGENTD_RUN_FLUSH_MS: '20',
        },
        extraPlugins: [bank],
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });
    beforeEach(() => {
      fake.reset();
      transfers.length = 0;
    });

    const bankAgent = (approval: Record<string, unknown> = { tools: ['transfer'] }) =>
      t.newAgent({
        model: { provider: 'openai-compatible', name: 'test-model' },
        plugins: [{ name: 'bank', approval }],
      });
    const send = async (agentId: string, body: Record<string, unknown>) => {
      const response = await t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload: body });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };
    const decide = (agentId: string, approvalId: string, payload: unknown, as = t.owner) =>
      t.inject({
        method: 'POST',
        url: `/v1/agents/${agentId}/approvals/${approvalId}`,
        payload: payload as object,
        as,
      });
    const getRun = async (agentId: string, runId: string) =>
      (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/runs/${runId}` })).json();
    const ended = (agentId: string, runId: string) =>
      eventually(async () => {
        const run = await getRun(agentId, runId);
        return ['completed', 'failed', 'cancelled', 'waiting'].includes(run.status) ? run : null;
      }, `run ${runId} to end`);
    /** Pauses a reply on a `transfer` call, with `balance` called beside it (it needs no approval). */
    const pause = async (agentId: string, userId = 'u1') => {
      fake.enqueue({
        toolCalls: [
          { name: 'balance', input: {} },
          { name: 'transfer', input: { amount: 5 } },
        ],
      });
      return send(agentId, { text: 'Send 5 to Bo', userId });
    };

    it('pauses on a tool that needs approval, lists it, and goes on once approved: the tool runs once', async () => {
      const agent = await bankAgent();
      const paused = await pause(agent.id);
      assert.equal(paused.finishReason, 'approval_required');
      assert.equal(paused.approvals.length, 1);
      const [pending] = paused.approvals;
      assert.match(pending.approvalId, /^apr_/);
      assert.equal(pending.name, 'transfer');
      assert.deepEqual(pending.input, { amount: 5 });
      assert.deepEqual(
        paused.toolCalls.map((call: { name: string }) => call.name),
        ['balance'],
        'the call that needs no approval ran',
      );
      assert.equal(transfers.length, 0, 'nothing was sent before the decision');
      const expiresIn = Date.parse(pending.expiresAt) - Date.now();
      assert.ok(expiresIn > 23 * 3_600_000 && expiresIn <= 24 * 3_600_000, 'expires after 24 h by default');

      const run = await ended(agent.id, paused.runId);
      assert.equal(run.status, 'waiting');
      assert.equal(run.reply.finishReason, 'approval_required');
      const waiting = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs?status=waiting` })).json();
      assert.deepEqual(
        waiting.data.map((each: { id: string }) => each.id),
        [paused.runId],
      );
      const list = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/approvals?status=pending` });
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(
        list
          .json()
          .data.map((approval: { id: string; status: string; runId: string }) => [
            approval.id,
            approval.status,
            approval.runId,
          ]),
        [[pending.approvalId, 'pending', paused.runId]],
      );

      fake.enqueue({ reply: 'Sent 5 to Bo.' });
      const decided = await decide(agent.id, pending.approvalId, { decision: 'approve' });
      assert.equal(decided.statusCode, 200, decided.body);
      assert.equal(decided.json().status, 'approved');
      const resumedRunId = decided.json().resumedRunId as string;
      assert.match(resumedRunId, /^run_/);
      const resumed = await eventually(async () => {
        const each = await getRun(agent.id, resumedRunId);
        return each.status === 'completed' ? each : null;
      }, 'the resumed run');
      assert.equal(resumed.trigger, 'approval');
      assert.equal(resumed.approvalId, pending.approvalId);
      assert.equal(resumed.reply.text, 'Sent 5 to Bo.');
      assert.equal(resumed.reply.finishReason, 'stop');
      assert.deepEqual(resumed.reply.toolCalls[0].output, { sent: 5 });
      assert.equal(resumed.reply.toolCalls[0].approval.status, 'approved');
      assert.deepEqual(transfers, [{ amount: 5 }], 'the tool ran once');
      // The model saw both results of the round that paused.
      const last = fake.requests.at(-1)!;
      assert.deepEqual(
        last.toolResults.map((result) => JSON.parse(result.content)),
        [{ balance: 100 }, { sent: 5 }],
      );
      assert.equal((await getRun(agent.id, paused.runId)).status, 'completed', 'the paused run is settled');

      const events = await fetch(`${base}/v1/agents/${agent.id}/runs/${resumedRunId}/events`, {
        headers: t.owner.headers,
      });
      const names = (await readEvents(events.body!).rest()).map((event) => event.event);
      assert.deepEqual(
        names.filter((name, index) => name !== names[index - 1]),
        ['message.started', 'tool.called', 'tool.completed', 'message.delta', 'message.completed'],
      );

      const history = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=u1` })).json();
      assert.deepEqual(
        history.data.map((turn: { role: string }) => turn.role).reverse(),
        ['user', 'tool', 'agent', 'tool', 'agent'],
        'the message once, then both parts of the reply',
      );

      const again = await decide(agent.id, pending.approvalId, { decision: 'deny' });
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'conflict');
      assert.deepEqual(transfers, [{ amount: 5 }], 'a second decision changes nothing');
    });

    it('never runs a denied tool, and tells the model why', async () => {
      const agent = await bankAgent({ tools: '*' });
      fake.enqueue({ toolCalls: [{ name: 'transfer', input: { amount: 9 } }] });
      const paused = await send(agent.id, { text: 'Send 9', userId: 'u2' });
      assert.equal(paused.finishReason, 'approval_required');
      fake.enqueue({ reply: 'I did not send it.' });
      const decided = await decide(agent.id, paused.approvals[0].approvalId, {
        decision: 'deny',
        reason: 'not this month',
      });
      assert.equal(decided.statusCode, 200, decided.body);
      assert.equal(decided.json().status, 'denied');
      assert.equal(decided.json().reason, 'not this month');
      const resumed = await eventually(async () => {
        const run = await getRun(agent.id, decided.json().resumedRunId);
        return run.status === 'completed' ? run : null;
      }, 'the resumed run');
      assert.equal(resumed.reply.text, 'I did not send it.');
      assert.equal(resumed.reply.toolCalls[0].approval.status, 'denied');
      assert.equal(transfers.length, 0, 'the tool never ran');
      const told = fake.requests.at(-1)!.toolResults[0]!.content;
      assert.match(told, /denied/);
      assert.match(told, /not this month/);
    });

    it('streams tool.approval_requested, and ends the stream with the paused reply', async () => {
      const agent = await bankAgent();
      fake.enqueue({ toolCalls: [{ name: 'transfer', input: { amount: 1 } }] });
      const response = await fetch(`${base}/v1/agents/${agent.id}/messages`, {
        method: 'POST',
        headers: { ...t.owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Send 1', stream: true }),
      });
      const events = await readEvents(response.body!).rest();
      assert.deepEqual(
        events.map((event) => event.event),
        ['message.started', 'tool.approval_requested', 'message.completed'],
      );
      const requested = events[1]!.data;
      assert.equal(requested.name, 'transfer');
      assert.deepEqual(requested.input, { amount: 1 });
      assert.match(requested.approvalId, /^apr_/);
      const completed = events[2]!.data;
      assert.equal(completed.finishReason, 'approval_required');
      assert.equal(completed.approvals[0].approvalId, requested.approvalId);
      assert.equal((await ended(agent.id, completed.runId)).status, 'waiting');
    });

    it('expires an undecided approval, found on read or by the sweep: the model is told and answers', async () => {
      const agent = await bankAgent({ tools: ['transfer'], expiresAfterSeconds: 60 });
      const first = await pause(agent.id, 'u3');
      const second = await pause(agent.id, 'u4');
      const { approvals } = t.deps.services.repositories;
      const past = new Date(Date.now() - 1_000).toISOString();
      for (const reply of [first, second]) {
        const id = reply.approvals[0].approvalId;
        assert.ok(Date.parse(reply.approvals[0].expiresAt) - Date.now() <= 60_000);
        await t.deps.services.repositories.db
          .updateTable('approvals')
          .set({ expires_at: past })
          .where('id', '=', id)
          .execute();
        assert.equal((await approvals.findById(id))?.status, 'pending');
      }
      fake.setDefault({ reply: 'The transfer was not approved in time.' });
      try {
        // On read: the approval shows expired, and the reply went on.
        const read = await t.inject({
          method: 'GET',
          url: `/v1/agents/${agent.id}/approvals/${first.approvals[0].approvalId}`,
        });
        assert.equal(read.json().status, 'expired');
        const late = await decide(agent.id, first.approvals[0].approvalId, { decision: 'approve' });
        assert.equal(late.statusCode, 409, 'too late to decide');
        // By the sweep, at a heartbeat.
        await t.deps.services.runs.beat();
        const swept = await approvals.findById(second.approvals[0].approvalId);
        assert.equal(swept?.status, 'expired');
        for (const approval of [read.json(), swept!]) {
          const runId = 'resumedRunId' in approval ? approval.resumedRunId : approval.resumed_run_id;
          const resumed = await eventually(async () => {
            const run = await getRun(agent.id, runId as string);
            return run.status === 'completed' ? run : null;
          }, 'the resumed run');
          assert.equal(resumed.reply.text, 'The transfer was not approved in time.');
          assert.equal(resumed.reply.toolCalls.at(-1).approval.status, 'expired');
        }
        assert.equal(transfers.length, 0, 'an expired call never runs');
        const told = fake.requests.at(-1)!.toolResults.at(-1)!.content;
        assert.match(told, /expired/);
      } finally {
        fake.setDefault({});
      }
    });

    it("answers 404 for another account's approval, and 403 to a key without approvals:write", async () => {
      const agent = await bankAgent();
      const paused = await pause(agent.id, 'u5');
      const approvalId = paused.approvals[0].approvalId;
      const stranger = await t.newAccount();
      const read = await t.inject({
        method: 'GET',
        url: `/v1/agents/${agent.id}/approvals/${approvalId}`,
        as: stranger,
      });
      assert.equal(read.statusCode, 404);
      const decided = await decide(agent.id, approvalId, { decision: 'approve' }, stranger);
      assert.equal(decided.statusCode, 404);
      const listed = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/approvals`, as: stranger });
      assert.equal(listed.statusCode, 404);

      const narrow = await t.newKey(t.owner.accountId, ['agents:read', 'messages:send']);
      const refused = await decide(agent.id, approvalId, { decision: 'approve' }, narrow);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().code, 'insufficient_scope');
      const bad = await decide(agent.id, approvalId, { decision: 'maybe' });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().errors[0].path, '/body/decision');
      const pending = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/approvals/${approvalId}` });
      assert.equal(pending.json().status, 'pending', 'none of these decided it');
      assert.equal(transfers.length, 0);
    });

    it('checks the approval setting of a plugin entry at its JSON pointer, and shows it', async () => {
      const refused = await t.inject({
        method: 'POST',
        url: '/v1/agents',
        payload: { name: 'B', plugins: [{ name: 'bank', approval: { tools: 'all' } }] },
      });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.json().errors[0].path, /^\/body\/plugins\/0\/approval/);
      const agent = await bankAgent({ tools: ['transfer'], expiresAfterSeconds: 600 });
      assert.deepEqual(agent.plugins[0].approval, { tools: ['transfer'], expiresAfterSeconds: 600 });
    });

    it('goes on once the last of a run’s approvals is decided, once, even when two decisions come together', async () => {
      const agent = await bankAgent();
      const pauseTwice = async () => {
        fake.enqueue({
          toolCalls: [
            { name: 'transfer', input: { amount: 5 } },
            { name: 'transfer', input: { amount: 7 } },
          ],
        });
        const paused = await send(agent.id, { text: 'Send 5 and 7 to Bo', userId: 'u2' });
        assert.equal(paused.approvals.length, 2);
        return paused;
      };
      const approvalRuns = async () =>
        (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs?trigger=approval` })).json().data;

      // One after the other: the first decision leaves one pending, so nothing goes on yet.
      const first = await pauseTwice();
      const [five, seven] = first.approvals;
      const one = await decide(agent.id, five.approvalId, { decision: 'approve' });
      assert.equal(one.statusCode, 200, one.body);
      assert.equal(one.json().resumedRunId, null);
      assert.equal((await getRun(agent.id, first.runId)).status, 'waiting');
      assert.deepEqual(await approvalRuns(), []);
      fake.enqueue({ reply: 'Sent 5; 7 was refused.' });
      const two = await decide(agent.id, seven.approvalId, { decision: 'deny', reason: 'too much' });
      assert.equal(two.statusCode, 200, two.body);
      const resumedRunId = two.json().resumedRunId as string;
      assert.match(resumedRunId, /^run_/);
      const resumed = await eventually(async () => {
        const run = await getRun(agent.id, resumedRunId);
        return run.status === 'completed' ? run : null;
      }, 'the resumed run');
      assert.equal(resumed.input, 'Send 5 and 7 to Bo', 'the resumed run has the paused run’s input');
      assert.equal(resumed.approvalId, seven.approvalId);
      assert.deepEqual(transfers, [{ amount: 5 }], 'the approved call ran, the denied one did not');
      assert.equal((await getRun(agent.id, first.runId)).status, 'completed', 'the paused run is settled');
      const decided = (
        await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/approvals/${five.approvalId}` })
      ).json();
      assert.equal(decided.resumedRunId, resumedRunId, 'every approval of the run names the run that went on');

      // Together: whichever is taken last goes on with the reply, and only one run does.
      transfers.length = 0;
      const second = await pauseTwice();
      fake.enqueue({ reply: 'Sent both.' });
      const both = await Promise.all(
        second.approvals.map((approval: { approvalId: string }) =>
          decide(agent.id, approval.approvalId, { decision: 'approve' }),
        ),
      );
      assert.deepEqual(
        both.map((response) => response.statusCode),
        [200, 200],
      );
      const runs = await eventually(async () => {
        const each = (await approvalRuns()).filter((run: { id: string }) => run.id !== resumedRunId);
        return each.length > 0 && each.every((run: { status: string }) => run.status === 'completed') ? each : null;
      }, 'the second resumed run');
      assert.equal(runs.length, 1, 'one run goes on with the reply');
      assert.equal(runs[0].reply.text, 'Sent both.');
      assert.deepEqual(
        transfers.map((transfer) => (transfer as { amount: number }).amount).sort(),
        [5, 7],
        'each approved call ran once',
      );
    });
  });
}

describe('approvals with a provider that repeats a call id', () => {
  // The Anthropic provider passes each call's id on as the model wrote it (the OpenAI-compatible one renames a
  // repeated id), so two calls of one round can reach the pause with the same id.
  let fake: FakeProviderServer;
  let t: TestApp;
  before(async () => {
    fake = await startFakeAnthropicServer();
    t = await createTestApp({
      env: { ANTHROPIC_API_KEY: 'sk-ant-test-key-0123456789', ANTHROPIC_BASE_URL: fake.origin },
      extraPlugins: [bank],
    });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.reset();
    transfers.length = 0;
  });

  const decide = (agentId: string, approvalId: string, decision: 'approve' | 'deny') =>
    t.inject({ method: 'POST', url: `/v1/agents/${agentId}/approvals/${approvalId}`, payload: { decision } });

  it('paused calls are matched to decisions by position: a denied call sharing an approved call’s id never runs', async () => {
    const agent = await t.newAgent({
      model: { provider: 'anthropic', name: 'claude-test' },
      plugins: [{ name: 'bank', approval: { tools: ['transfer'] } }],
    });
    fake.enqueue({
      toolCalls: [
        { id: 'toolu_repeated', name: 'transfer', input: { amount: 700 } },
        { id: 'toolu_repeated', name: 'transfer', input: { amount: 5 } },
      ],
    });
    const sent = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/messages`,
      payload: { text: 'Send 5 and 700 to Bo', userId: 'u1' },
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const paused = sent.json();
    assert.equal(paused.finishReason, 'approval_required');
    const approvalOf = (amount: number) =>
      paused.approvals.find((approval: { input: { amount: number } }) => approval.input.amount === amount);
    const [small, large] = [approvalOf(5), approvalOf(700)];
    assert.ok(small && large, JSON.stringify(paused.approvals));
    assert.equal(small.toolCallId, large.toolCallId, 'both calls carry the id the model gave them');

    // The second call's approval is the one a map by id would have given both calls: the denied first one would run.
    const refused = await decide(agent.id, large.approvalId, 'deny');
    assert.equal(refused.statusCode, 200, refused.body);
    fake.enqueue({ reply: 'Sent 5; 700 was refused.' });
    const approved = await decide(agent.id, small.approvalId, 'approve');
    assert.equal(approved.statusCode, 200, approved.body);
    const resumed = await eventually(async () => {
      const run = (
        await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs/${approved.json().resumedRunId}` })
      ).json();
      return run.status === 'completed' ? run : null;
    }, 'the resumed run');
    assert.deepEqual(transfers, [{ amount: 5 }], 'the approved call ran once, the denied one never');
    assert.deepEqual(
      resumed.reply.toolCalls.map((call: { input: unknown; approval: { approvalId: string; status: string } }) => [
        call.input,
        call.approval.approvalId,
        call.approval.status,
      ]),
      [
        [{ amount: 700 }, large.approvalId, 'denied'],
        [{ amount: 5 }, small.approvalId, 'approved'],
      ],
    );
  });
  it('paused calls are matched to decisions by position: a state paused with two calls on one approval runs neither', async () => {
    const agent = await t.newAgent({
      model: { provider: 'anthropic', name: 'claude-test' },
      plugins: [{ name: 'bank', approval: { tools: ['transfer'] } }],
    });
    fake.enqueue({
      toolCalls: [
        { id: 'toolu_repeated', name: 'transfer', input: { amount: 700 } },
        { id: 'toolu_repeated', name: 'transfer', input: { amount: 5 } },
      ],
    });
    const sent = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/messages`,
      payload: { text: 'Send 5 and 700 to Bo', userId: 'u1' },
    });
    const paused = sent.json();
    assert.equal(paused.finishReason, 'approval_required', sent.body);
    const approvalOf = (amount: number) =>
      paused.approvals.find((approval: { input: { amount: number } }) => approval.input.amount === amount);
    const [small, large] = [approvalOf(5), approvalOf(700)];
    // A run paused before calls were matched by position holds both calls on the last one's approval.
    const row = await t.deps.database.db
      .selectFrom('paused_runs')
      .select('state')
      .where('run_id', '=', paused.runId)
      .executeTakeFirstOrThrow();
    const state = JSON.parse(row.state);
    for (const call of state.calls) call.approvalId = small.approvalId;
    const updated = await t.deps.database.db
      .updateTable('paused_runs')
      .set({ state: JSON.stringify(state) })
      .where('run_id', '=', paused.runId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(updated.numUpdatedRows), 1);

    assert.equal((await decide(agent.id, large.approvalId, 'deny')).statusCode, 200);
    fake.enqueue({ reply: 'Sent.' });
    const approved = await decide(agent.id, small.approvalId, 'approve');
    assert.equal(approved.statusCode, 200, approved.body);
    const resumed = await eventually(async () => {
      const run = (
        await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs/${approved.json().resumedRunId}` })
      ).json();
      return run.status === 'running' || run.status === 'queued' ? null : run;
    }, 'the resumed run to end');
    assert.equal(resumed.status, 'failed', JSON.stringify(resumed));
    assert.deepEqual(transfers, [], 'neither call ran: the denied one would have run under the other’s approval');
  });
});

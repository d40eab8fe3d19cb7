import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/ids.js';
import type { MessageRow } from '../../src/storage/repositories/messages.js';
import type { ApprovalDecision, RunFinish } from '../../src/storage/repositories/runs.js';
import { recordSecrets } from '../helpers/known-secrets.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The run store is the one writer of runs, with the same methods on both
 * dialects: PostgreSQL makes a completed reply's end and a decision on an
 * approval one statement each, SQLite a transaction of ordinary statements.
 * What they leave behind must be the same.
 */
for (const backend of backends) {
  describe(`the run store on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name, env: { AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    });
    after(() => t?.close());

    const repositories = () => t.deps.services.repositories;
    const at = () => new Date().toISOString();

    /** A run of `agentId` in `status`, produced by this app's instance (alive, so no sweep ends it). */
    async function newRun(agentId: string, status: 'running' | 'waiting', input = 'the question'): Promise<string> {
      const id = newId('run');
      await repositories().runs.insert({
        id,
        account_id: t.owner.accountId,
        agent_id: agentId,
        trigger: 'message',
        status,
        background: 0,
        input,
        event_count: 0,
        instance_id: t.deps.services.runs.instanceId,
        created_at: at(),
        started_at: at(),
      });
      return id;
    }

    function turns(agentId: string): MessageRow[] {
      const common = {
        agent_id: agentId,
        conversation: 'user:u1',
        user_id: 'u1',
        room_id: null,
        finish_reason: null,
        usage: null,
        model: null,
        latency_ms: null,
        tool: null,
        created_at: at(),
      };
      return [
        { ...common, id: newId('message'), role: 'user', text: 'hello' },
        { ...common, id: newId('message'), role: 'agent', text: 'hi there', finish_reason: 'stop', latency_ms: 12 },
      ];
    }

    function completed(eventCount: number): RunFinish {
      return {
        status: 'completed',
        finishReason: 'stop',
        usage: JSON.stringify({ inputTokens: 3, outputTokens: 2 }),
        result: JSON.stringify({ text: 'hi there' }),
        error: null,
        eventCount,
        finishedAt: at(),
      };
    }

    const storedTurns = (agentId: string) =>
      repositories()
        .db.selectFrom('messages')
        .select(['role', 'text'])
        .where('agent_id', '=', agentId)
        .orderBy('id')
        .execute();

    it('ends a completed reply: its turns, its run’s end and its last events, once', async () => {
      const agent = await t.newAgent();
      const runId = await newRun(agent.id, 'running');
      const events = JSON.stringify([
        { event: 'message.delta', data: { text: 'hi there' } },
        { event: 'message.completed', data: { text: 'hi there' } },
      ]);
      const written = await repositories().runs.completeReply({
        agentId: agent.id,
        turns: turns(agent.id),
        run: { runId, finish: completed(2), events: { firstSeq: 1, lastSeq: 2, events } },
        event: { accountId: t.owner.accountId, type: 'message.completed' },
      });
      assert.deepEqual(written, { written: true, stored: true, ended: true });
      assert.deepEqual(await storedTurns(agent.id), [
        { role: 'user', text: 'hello' },
        { role: 'agent', text: 'hi there' },
      ]);
      const run = await repositories().runs.findById(runId);
      assert.equal(run?.status, 'completed');
      assert.equal(run?.finish_reason, 'stop');
      assert.equal(run?.event_count, 2);
      assert.deepEqual(await repositories().runs.eventsAfter(runId, 0), [{ firstSeq: 1, lastSeq: 2, events }]);

      // A second end (another instance's, say) of a run that has ended changes nothing of the run.
      const again = await repositories().runs.completeReply({
        agentId: agent.id,
        turns: [],
        run: {
          runId,
          finish: { ...completed(3), status: 'failed' },
          events: { firstSeq: 3, lastSeq: 3, events: '[]' },
        },
        event: null,
      });
      assert.deepEqual(again, { written: true, stored: false, ended: false });
      assert.equal((await repositories().runs.findById(runId))?.status, 'completed');
      assert.equal((await repositories().runs.eventsAfter(runId, 0)).length, 1);
    });

    it('writes nothing of a completed reply whose account has a webhook for its event', async () => {
      const account = await t.newAccount();
      const hook = await t.inject({
        method: 'POST',
        url: '/v1/webhooks',
        payload: { url: 'http://127.0.0.1:9/hook', events: ['message.completed'] },
        as: account,
      });
      assert.equal(hook.statusCode, 201, hook.body);
      recordSecrets(hook.json().secret);
      const created = await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Hooked' }, as: account });
      const agent = created.json();
      const runId = newId('run');
      await repositories().runs.insert({
        id: runId,
        account_id: account.accountId,
        agent_id: agent.id,
        trigger: 'message',
        status: 'running',
        background: 0,
        input: 'hello',
        event_count: 0,
        instance_id: t.deps.services.runs.instanceId,
        created_at: at(),
        started_at: at(),
      });
      const written = await repositories().runs.completeReply({
        agentId: agent.id,
        turns: turns(agent.id),
        run: { runId, finish: completed(0), events: null },
        event: { accountId: account.accountId, type: 'message.completed' },
      });
      assert.deepEqual(written, { written: false });
      assert.deepEqual(await storedTurns(agent.id), []);
      assert.equal((await repositories().runs.findById(runId))?.status, 'running');

      // An event no webhook of the account is subscribed to is no reason to decline.
      const unsubscribed = await repositories().runs.completeReply({
        agentId: agent.id,
        turns: [],
        run: { runId, finish: completed(0), events: null },
        event: { accountId: account.accountId, type: 'message.failed' },
      });
      assert.deepEqual(unsubscribed, { written: true, stored: false, ended: true });
    });

    it('stores no turns of a reply whose agent was deleted meanwhile', async () => {
      const agent = await t.newAgent();
      const runId = await newRun(agent.id, 'running');
      const deleted = await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}` });
      assert.equal(deleted.statusCode, 200, deleted.body);
      const written = await repositories().runs.completeReply({
        agentId: agent.id,
        turns: turns(agent.id),
        run: { runId, finish: completed(0), events: null },
        event: null,
      });
      // Its runs went with it: the end changes nothing.
      assert.deepEqual(written, { written: true, stored: false, ended: false });
      assert.deepEqual(await storedTurns(agent.id), []);
      assert.equal(await repositories().runs.findById(runId), undefined);
    });

    it('decides approvals; the last one settles the paused run and writes the run that goes on with it', async () => {
      const agent = await t.newAgent();
      const pausedRunId = await newRun(agent.id, 'waiting', 'transfer the funds');
      const { approvals, runs, db } = repositories();
      const approvalIds = [newId('approval'), newId('approval')];
      await approvals.insertPause(
        {
          run_id: pausedRunId,
          account_id: t.owner.accountId,
          agent_id: agent.id,
          state: '{}',
          decisions: 0,
          resumed_run_id: null,
          created_at: at(),
        },
        approvalIds.map((id, index) => ({
          id,
          account_id: t.owner.accountId,
          agent_id: agent.id,
          run_id: pausedRunId,
          tool_call_id: `call_${index}`,
          tool_name: 'transfer',
          input: '{}',
          status: 'pending',
          reason: null,
          decided_by: null,
          user_id: 'u1',
          room_id: 'r1',
          expires_at: new Date(Date.now() + 3_600_000).toISOString(),
          decided_at: null,
          resumed_run_id: null,
          created_at: at(),
        })),
      );
      // As the approvals service does: the paused run's lock, then the decision, in one transaction.
      const decide = (approvalId: string, status: ApprovalDecision['status'], resumedRunId: string) =>
        db.transaction().execute(async (transaction) => {
          assert.equal(await approvals.lockPausedRun(pausedRunId, transaction), true);
          return runs.decideApproval(
            {
              approvalId,
              pausedRunId,
              status,
              reason: status === 'denied' ? 'not now' : null,
              decidedBy: t.owner.keyId,
              at: at(),
              resume: {
                runId: resumedRunId,
                accountId: t.owner.accountId,
                agentId: agent.id,
                userId: 'u1',
                roomId: 'r1',
                instanceId: t.deps.services.runs.instanceId,
              },
            },
            transaction,
          );
        });

      const unused = newId('run');
      assert.deepEqual(await decide(approvalIds[0]!, 'approved', unused), { decided: true, resumed: false });
      assert.equal((await runs.findById(pausedRunId))?.status, 'waiting');
      assert.equal(await runs.findById(unused), undefined);
      assert.equal((await approvals.findById(approvalIds[0]!))?.status, 'approved');

      const resumedRunId = newId('run');
      assert.deepEqual(await decide(approvalIds[1]!, 'denied', resumedRunId), { decided: true, resumed: true });
      assert.equal((await runs.findById(pausedRunId))?.status, 'completed');
      const resumed = await runs.findById(resumedRunId);
      assert.deepEqual(
        resumed && {
          status: resumed.status,
          trigger: resumed.trigger,
          background: resumed.background,
          input: resumed.input,
          approvalId: resumed.approval_id,
          userId: resumed.user_id,
          roomId: resumed.room_id,
          instanceId: resumed.instance_id,
          startedAt: resumed.started_at,
        },
        {
          status: 'queued',
          trigger: 'approval',
          background: 1,
          input: 'transfer the funds',
          approvalId: approvalIds[1],
          userId: 'u1',
          roomId: 'r1',
          instanceId: t.deps.services.runs.instanceId,
          startedAt: null,
        },
      );
      assert.equal((await approvals.pausedRun(pausedRunId))?.resumed_run_id, resumedRunId);
      const decided = await approvals.ofRun(pausedRunId);
      assert.deepEqual(
        decided.map((row) => [row.status, row.reason, row.resumed_run_id]),
        [
          ['approved', null, resumedRunId],
          ['denied', 'not now', resumedRunId],
        ],
      );

      // A decision on an approval no longer pending is refused and writes nothing.
      const late = newId('run');
      assert.deepEqual(await decide(approvalIds[0]!, 'denied', late), { decided: false, resumed: false });
      assert.equal(await runs.findById(late), undefined);
      assert.equal((await approvals.findById(approvalIds[0]!))?.status, 'approved');
    });

    it('ends a run refused before it began: failed with its problem as its one event, or skipped with none', async () => {
      const agent = await t.newAgent();
      const { runs } = repositories();
      const problem = { type: '/docs/errors#agent_not_active', status: 409, code: 'agent_not_active' };
      const failedId = (await runs.createQueued(queued(agent.id))).id;
      assert.equal(await runs.failUnstarted(failedId, { status: 'failed', problem, at: at() }), true);
      const failed = await runs.findById(failedId);
      assert.deepEqual(
        [failed?.status, failed?.event_count, JSON.parse(failed?.error ?? 'null')],
        ['failed', 1, problem],
      );
      const [batch] = await runs.eventsAfter(failedId, 0);
      assert.deepEqual(JSON.parse(batch?.events ?? '[]'), [
        { event: 'message.failed', data: { id: null, error: problem } },
      ]);
      assert.equal(await runs.failUnstarted(failedId, { status: 'failed', problem, at: at() }), false);

      const skippedId = (await runs.createQueued(queued(agent.id))).id;
      assert.equal(await runs.failUnstarted(skippedId, { status: 'skipped', problem, at: at() }), true);
      assert.equal((await runs.findById(skippedId))?.status, 'skipped');
      assert.deepEqual(await runs.eventsAfter(skippedId, 0), []);
    });

    function queued(agentId: string) {
      return {
        id: newId('run'),
        accountId: t.owner.accountId,
        agentId,
        trigger: 'message',
        taskId: null,
        userId: null,
        roomId: null,
        input: 'later',
        instanceId: t.deps.services.runs.instanceId,
        createdAt: at(),
        approvalId: null,
      };
    }
  });
}

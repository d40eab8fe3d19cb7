import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/ids.js';
import { openRunEvents } from '../../src/services/runs/follow-run.js';
import type { RunRepository } from '../../src/storage/repositories/runs.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

const delta = (text: string) => ({ event: 'message.delta', data: { text } });

/**
 * What a heartbeat reads of the runs table: the unfinished runs of stopped
 * instances (the sweep ends them), and the runs of this instance someone
 * asked to cancel. Both are read by instance, so an instance holding
 * thousands of open streams does not read (or name) each of its runs every
 * heartbeat; what they find must be what a reading of every run would find.
 */
for (const backend of backends) {
  describe(`the heartbeat's reads of runs on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    let runs: RunRepository;
    let agentId: string;
    const staleBefore = '2026-06-01T00:00:00.000Z';
    const live = `ins_live_${newId('request')}`;
    const stale = `ins_stale_${newId('request')}`;
    const gone = `ins_gone_${newId('request')}`;

    before(async () => {
      // The app's own heartbeat (and its sweep, which would end the runs made here) beats once at start, then not
      // again within the test.
      t = await createTestApp({
        backend: backend.name,
        env: { AGENTD_RUN_HEARTBEAT_MS: '60000', AGENTD_RUN_STALE_MS: '600000' },
      });
      runs = t.deps.services.repositories.runs;
      agentId = (await t.newAgent()).id;
      await runs.heartbeat(live, '2026-06-01T00:00:05.000Z');
      await runs.heartbeat(stale, '2026-05-31T23:59:00.000Z');
    });
    after(async () => t?.close());

    async function run(status: string, instanceId: string | null): Promise<string> {
      const id = newId('run');
      await runs.insert({
        id,
        account_id: t.owner.accountId,
        agent_id: agentId,
        trigger: 'message',
        task_id: null,
        due_at: null,
        status,
        background: 0,
        user_id: null,
        room_id: null,
        input: 'hello',
        message_id: null,
        instance_id: instanceId,
        event_count: 0,
        created_at: '2026-05-31T23:00:00.000Z',
        started_at: status === 'queued' ? null : '2026-05-31T23:00:00.000Z',
        call_key: null,
      });
      return id;
    }

    it('finds the unfinished runs of stopped instances and of none, and no other', async () => {
      const orphans = [
        await run('running', null),
        await run('running', stale),
        await run('queued', stale),
        await run('running', gone),
        await run('queued', gone),
      ];
      for (let index = 0; index < 20; index += 1) await run('running', live);
      await run('queued', live);
      await run('queued', null);
      await run('completed', stale);
      await run('failed', gone);
      const found = await runs.orphaned(staleBefore, 100);
      assert.deepEqual(found.map((row) => row.id).sort(), [...orphans].sort());
      // At most `limit`, whichever they are.
      const some = await runs.orphaned(staleBefore, 3);
      assert.equal(some.length, 3);
      assert.ok(some.every((row) => orphans.includes(row.id)));
    });

    it('finds the runs of an instance someone asked to cancel, while they are unfinished', async () => {
      const mine = await run('running', live);
      const other = await run('running', stale);
      const ended = await run('completed', live);
      await run('running', live);
      assert.deepEqual(await runs.cancelRequested(live), []);
      assert.equal(await runs.requestCancel(mine, '2026-06-01T00:00:06.000Z'), true);
      assert.equal(await runs.requestCancel(other, '2026-06-01T00:00:06.000Z'), true);
      assert.equal(await runs.requestCancel(ended, '2026-06-01T00:00:06.000Z'), false);
      assert.deepEqual(await runs.cancelRequested(live), [mine]);
      assert.deepEqual(await runs.cancelRequested(stale), [other]);
    });

    it('gives a reader ahead of a run taken over here (it saw events never stored) the outcome after its own', async () => {
      const runtime = t.deps.services.runs;
      const runId = await run('running', runtime.instanceId);
      const stored = JSON.stringify(Array.from({ length: 50 }, (_, index) => delta(`w${index} `)));
      await runs.appendEvents([{ runId, firstSeq: 1, lastSeq: 50, events: stored }], '2026-05-31T23:00:01.000Z');
      // The stopped instance had sent 51–53 to the reader; this one goes on after the stored 50 and ends at 53.
      const log = runtime.begin({ id: runId, accountId: t.owner.accountId, agentId }, Promise.resolve(), 50);
      const problem = { type: '/docs/errors#agent_unavailable', status: 409, code: 'agent_unavailable' };
      log.record(delta('again '));
      log.record(delta('and on'));
      log.record({ event: 'message.failed', data: { id: null, error: problem } });
      const ctx = {
        deps: t.deps.services,
        actor: { accountId: t.owner.accountId, keyId: t.owner.keyId, scopes: new Set(['agents:read']) },
        requestId: newId('request'),
      };
      const reader = await openRunEvents({ ctx, agentId, runId, afterSeq: 53, signal: new AbortController().signal });
      const next = reader.next();
      await runtime.finish(log, { status: 'failed', reply: null, error: problem });
      const outcome = await next;
      assert.equal(outcome.done, false, 'the stream does not end without an outcome');
      assert.equal(outcome.value?.seq, 54);
      assert.equal(outcome.value?.event, 'message.failed');
      assert.equal((await reader.next()).done, true);
    });

    it('ends failed, after its stored events, a run taken over whose continuation gave up', async () => {
      const runtime = t.deps.services.runs;
      runtime.onTakeOver(async () => {
        throw new Error('the continuation could not begin');
      });
      const orphan = await run('running', gone);
      const said = JSON.stringify([{ event: 'message.delta', data: { text: 'Hel' } }]);
      await runs.appendEvents([{ runId: orphan, firstSeq: 1, lastSeq: 2, events: said }], '2026-05-31T23:00:01.000Z');
      await runtime.beat();
      const ended = await eventually(async () => {
        const row = await runs.findById(orphan);
        return row?.status === 'queued' || row?.status === 'running' ? null : row;
      }, 'the run to end');
      assert.equal(ended?.status, 'failed');
      assert.equal(ended?.instance_id, runtime.instanceId, 'this instance had claimed it');
      assert.equal(ended?.event_count, 3);
      const batches = await runs.eventsAfter(orphan, 0);
      assert.deepEqual(
        batches.map((batch) => [batch.firstSeq, batch.lastSeq]),
        [
          [1, 2],
          [3, 3],
        ],
      );
      assert.equal(JSON.parse(batches[1]!.events)[0].event, 'message.failed');
    });
  });
}

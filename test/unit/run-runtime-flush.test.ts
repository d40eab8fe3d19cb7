import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunRepository } from '../../src/storage/repositories/runs.js';
import { runtimeOver } from '../helpers/run-runtime.js';

/**
 * A flush writes the new events of every live run in one statement, after
 * each run's row exists (its events reference it). Runs whose row is stored
 * are not waited for; a run whose row is still being written holds the flush
 * until it is, and a run whose row failed keeps its events for a later flush.
 */

type Written = { runId: string; firstSeq: number; lastSeq: number }[];

function recordingRuns(): { runs: RunRepository; writes: Written[] } {
  const writes: Written[] = [];
  const runs = {
    appendEvents: async (batches: { runId: string; firstSeq: number; lastSeq: number }[]) => {
      writes.push(batches.map(({ runId, firstSeq, lastSeq }) => ({ runId, firstSeq, lastSeq })));
    },
  } as unknown as RunRepository;
  return { runs, writes };
}

const delta = { event: 'message.delta', data: { text: 'word ' } };

describe('the run-events flush', () => {
  it('writes the events of runs whose row is stored, and waits for a row still being written', async () => {
    const { runs, writes } = recordingRuns();
    const runtime = runtimeOver(runs);
    const stored = runtime.begin({ id: 'run_a', accountId: 'acc_1', agentId: 'agt_1' }, Promise.resolve());
    let storeRow: () => void = () => {};
    const storing = runtime.begin(
      { id: 'run_b', accountId: 'acc_1', agentId: 'agt_1' },
      new Promise<void>((resolve) => (storeRow = resolve)),
    );
    await Promise.resolve();
    stored.record(delta);
    stored.record(delta);
    storing.record(delta);
    let flushed = false;
    const flush = runtime.flush().then(() => (flushed = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(flushed, false, 'the flush waits for run_b’s row');
    assert.deepEqual(writes, [], 'nothing is written before it exists');
    storeRow();
    await flush;
    assert.deepEqual(writes, [
      [
        { runId: 'run_a', firstSeq: 1, lastSeq: 2 },
        { runId: 'run_b', firstSeq: 1, lastSeq: 1 },
      ],
    ]);
    assert.equal(stored.hasUnwritten || storing.hasUnwritten, false);
  });

  it('keeps the events when a run’s row could not be written, and writes nothing of that flush', async () => {
    const { runs, writes } = recordingRuns();
    const runtime = runtimeOver(runs);
    const stored = runtime.begin({ id: 'run_a', accountId: 'acc_1', agentId: 'agt_1' }, Promise.resolve());
    const failed = runtime.begin(
      { id: 'run_b', accountId: 'acc_1', agentId: 'agt_1' },
      Promise.reject(new Error('the insert failed')),
    );
    stored.record(delta);
    failed.record(delta);
    await runtime.flush();
    assert.deepEqual(writes, []);
    assert.equal(stored.hasUnwritten, true, 'run_a’s events wait for the next flush');
    assert.equal(failed.hasUnwritten, true);
  });
});

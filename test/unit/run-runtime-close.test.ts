import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunRepository } from '../../src/storage/repositories/runs.js';
import { runtimeOver } from '../helpers/run-runtime.js';

/**
 * Closing the runs' runtime waits for a heartbeat in progress: the database is
 * closed right after (a command such as `agentd accounts create` closes it a
 * moment after start), and a heartbeat still querying it failed and logged
 * "driver has already been destroyed" onto the command's output.
 */

describe('closing the runs’ runtime', () => {
  it('waits for the heartbeat in progress, and queries nothing after it', async () => {
    let releaseHeartbeat: () => void = () => {};
    const calls: string[] = [];
    const runs = {
      heartbeat: () => {
        calls.push('heartbeat');
        return new Promise<void>((resolve) => (releaseHeartbeat = resolve));
      },
      cancelRequested: async () => {
        calls.push('cancelRequested');
        return [];
      },
      orphaned: async () => {
        calls.push('orphaned');
        return [];
      },
      prune: async () => {
        calls.push('prune');
        return 0;
      },
      forgetInstance: async () => {
        calls.push('forgetInstance');
      },
    } as unknown as RunRepository;
    const runtime = runtimeOver(runs);
    runtime.start();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(calls, ['heartbeat']);
    let closed = false;
    const closing = runtime.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(closed, false, 'close waits for the heartbeat');
    releaseHeartbeat();
    await closing;
    assert.equal(calls.at(-1), 'forgetInstance', 'nothing is queried after the instance is forgotten');
  });

  it('queries nothing when it was never started, so a heartbeat under its id stays', async () => {
    const calls: string[] = [];
    const runs = new Proxy({} as RunRepository, {
      get: (_target, method) => async () => {
        calls.push(String(method));
      },
    });
    const runtime = runtimeOver(runs);
    await runtime.close();
    assert.deepEqual(calls, []);
  });
});

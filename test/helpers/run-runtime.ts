import pino from 'pino';
import { RunRuntime } from '../../src/services/runs/run-runtime.js';
import type { RunRepository } from '../../src/storage/repositories/runs.js';

/** A runs' runtime over `runs` (a fake with the calls a test needs), not started, with a fixed clock. */
export function runtimeOver(runs: RunRepository): RunRuntime {
  return new RunRuntime({
    db: {} as never,
    runs,
    runSteps: { prune: async () => 0, append: async () => {} } as never,
    approvals: {} as never,
    clock: { now: () => Date.parse('2026-11-27T00:00:00.000Z') } as never,
    logger: pino({ level: 'silent' }),
    instanceId: 'ins_1',
    settings: { eventRetentionHours: 24, flushMs: 100, heartbeatMs: 2_000, staleMs: 10_000, pollMs: 100 },
  });
}

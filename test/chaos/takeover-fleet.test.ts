import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseUrl, postgresSkip, redisSkip, redisUrl } from '../helpers/environment.js';
import { takeoverFleet, takeoverSummary } from './takeover-fleet.js';

/**
 * The takeover fleet run's short version (takeover-fleet.ts): two instances,
 * 60 s of tasks, background runs and streams followed on the other instance,
 * one instance killed with SIGKILL every 20 s and started again, with a
 * stale time of 2 s so that takeovers come quickly. Every due time and run
 * completes with its whole reply; no completed step is asked again once
 * journaled and no side effect is made twice. The full version (≥ 4 minutes,
 * the default stale time) is `npm run chaos:takeover`.
 */
describe('runs taken over in a fleet under kill -9', { skip: postgresSkip || redisSkip }, () => {
  it('completes every task due time, background run and followed stream, repeating no side effect', async () => {
    const result = await takeoverFleet({
      durationMs: 60_000,
      killEveryMs: 20_000,
      tasks: 4,
      taskEverySeconds: 10,
      backgroundRuns: 20,
      followedStreams: 4,
      staleMs: 2_000,
      heartbeatMs: 400,
      postgresUrl: databaseUrl!,
      redisUrl: redisUrl!,
    });
    const summary = takeoverSummary(result);
    process.stdout.write(`# ${summary}\n`);
    assert.deepEqual(result.losses, [], summary);
    assert.ok(result.kills >= 2, summary);
    assert.ok(result.streams.resumedSeen >= 1 && result.takenOverRuns >= result.streams.followed, summary);
    assert.ok(result.tasks.dueTimes >= 4 * 4 && result.background.acknowledged >= 18, summary);
  });
});

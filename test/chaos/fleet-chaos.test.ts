import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseUrl, postgresSkip, redisSkip, redisUrl } from '../helpers/environment.js';
import { fleetRun, summaryLine } from './fleet-run.js';

/**
 * The fleet run's short version (fleet-run.ts): three instances behind a
 * round-robin proxy, 45 s of mixed load, one instance killed with SIGKILL
 * every 10 s and started again; nothing acknowledged, committed or due may
 * be lost. The full version (3 minutes, a kill every 30 s) is `npm run chaos:fleet`.
 */
describe('a fleet under kill -9', { skip: postgresSkip || redisSkip }, () => {
  it('loses no write, webhook event, Telegram answer, task due time or stream', async () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const result = await fleetRun({
      durationMs: 45_000,
      killEveryMs: 10_000,
      seed,
      postgresUrl: databaseUrl!,
      redisUrl: redisUrl!,
    });
    const summary = `${summaryLine(result)}; replay: npm run chaos:fleet -- --seconds 45 --kill-every 10 --seed ${seed}`;
    process.stdout.write(`# ${summary}\n`);
    assert.deepEqual(result.losses, [], summary);
    assert.ok(result.kills >= 3, summary);
    assert.ok(result.acknowledgedWrites > 0 && result.telegram.sent > 0 && result.tasks.dueTimes > 0, summary);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseUrl, postgresSkip, redisSkip, redisUrl } from '../helpers/environment.js';
import { fleetRun, summaryLine } from './fleet-run.js';

/**
 * The fleet run's short version (fleet-run.ts): three instances behind a
 * round-robin proxy, 40 s of mixed load, one instance killed with SIGKILL
 * every 8 s and started again (a kill is skipped while only one instance is
 * up, so a slow restart means fewer kills); nothing acknowledged, committed
 * or due may be lost. The full version (3 minutes, a kill every 30 s) is `npm run chaos:fleet`.
 */
describe('a fleet under kill -9', { skip: postgresSkip || redisSkip }, () => {
  it('loses no write, webhook event, Telegram answer, task due time or stream', async () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const result = await fleetRun({
      durationMs: 40_000,
      killEveryMs: 8_000,
      seed,
      postgresUrl: databaseUrl!,
      redisUrl: redisUrl!,
    });
    const summary = `${summaryLine(result)}; replay: npm run chaos:fleet -- --seconds 40 --kill-every 8 --seed ${seed}`;
    process.stdout.write(`# ${summary}\n`);
    assert.deepEqual(result.losses, [], summary);
    assert.ok(result.kills >= 2, summary);
    assert.ok(result.acknowledgedWrites > 0 && result.telegram.sent > 0 && result.tasks.dueTimes > 0, summary);
  });
});

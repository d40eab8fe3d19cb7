import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createLimits, type Limits } from '../../src/limits/limits.js';
import { redisSkip } from '../helpers/environment.js';
import { captureLog, type CapturedLog } from '../helpers/log-capture.js';
import { unusedPort } from '../helpers/network.js';
import { inspectionClient, randomRedisPrefix, RedisProxy, removeRedisKeys } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';

const warning = 'Redis is unreachable: rate and concurrency limits are kept per instance until it answers again';
const recovered = 'Redis answers again: rate and concurrency limits are shared by all instances';

async function limitsOn(url: string, prefix: string, log: CapturedLog): Promise<Limits> {
  const config = loadConfig({ REDIS_URL: url, AGENTD_REDIS_PREFIX: prefix });
  return createLimits(config, {
    logger: log.logger,
    clock: systemClock,
    connectWaitMs: 300,
    redis: { commandTimeoutMs: 200, pauseAfterFailureMs: 100, reconnectDelayMaxMs: 100 },
  });
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await work();
  return { result, ms: Date.now() - started };
}

describe('limits when Redis is unreachable', () => {
  it('serve with per-instance limits, without errors, and warn once without the password', async () => {
    const log = captureLog();
    const port = await unusedPort();
    const limits = await limitsOn(`redis://:hunter2-secret@127.0.0.1:${port}`, randomRedisPrefix(), log);
    try {
      const decisions = [];
      for (let index = 0; index < 3; index += 1) {
        const { result, ms } = await timed(() => limits.rateLimiter.consume('create:acc', 2, 60_000));
        assert.ok(ms < 100, `answered without waiting for Redis (${ms} ms)`);
        decisions.push(result.allowed);
      }
      assert.deepEqual(decisions, [true, true, false], 'the limit still holds within the instance');

      const first = await limits.concurrencyLimiter.acquire('agent', 1);
      assert.notEqual(first, null);
      assert.equal(await limits.concurrencyLimiter.acquire('agent', 1), null);
      await first!.release();
      assert.notEqual(await limits.concurrencyLimiter.acquire('agent', 1), null);

      await assert.rejects(limits.redis!.ping(), 'readiness sees Redis missing');
      const warnings = log.entries().filter((entry) => entry.msg === warning);
      assert.equal(warnings.length, 1, 'one warning, not one per request');
      assert.ok(!log.text().includes('hunter2-secret'), 'the Redis password never reaches the log');
    } finally {
      await limits.close();
    }
  });
});

describe('limits through a Redis outage', { skip: redisSkip }, () => {
  const prefix = randomRedisPrefix();
  const inspector = redisSkip ? null : inspectionClient();
  after(async () => {
    if (redisSkip) return;
    await removeRedisKeys(prefix);
    inspector?.disconnect();
  });

  it('fall back while Redis is down and share again once it is back', async () => {
    const proxy = await RedisProxy.start();
    const log = captureLog();
    const limits = await limitsOn(proxy.url, prefix, log);
    const sharedCount = () => inspector!.zcard(`${prefix}rate:outage`);
    try {
      assert.equal((await limits.rateLimiter.consume('outage', 100, 60_000)).allowed, true);
      assert.equal(await sharedCount(), 1, 'counted in Redis while it answers');

      await proxy.down();
      for (let index = 0; index < 5; index += 1) {
        const { result, ms } = await timed(() => limits.rateLimiter.consume('outage', 100, 60_000));
        assert.equal(result.allowed, true);
        assert.ok(ms < 300, `no request waits long for a missing Redis (${ms} ms)`);
      }
      assert.equal(await sharedCount(), 1, 'nothing reached Redis while it was down');
      assert.ok(log.entries().some((entry) => entry.msg === warning));

      await proxy.up();
      const backAfter = await waitFor(async () => {
        await limits.rateLimiter.consume('outage', 100, 60_000);
        return (await sharedCount()) > 1;
      }, 5000);
      assert.notEqual(backAfter, null, 'requests are counted in Redis again once it answers');
      assert.ok(log.entries().some((entry) => entry.msg === recovered));
    } finally {
      await limits.close();
      await proxy.down();
    }
  });

  it('fall back quickly when Redis stops answering on an open connection', async () => {
    const proxy = await RedisProxy.start();
    const limits = await limitsOn(proxy.url, prefix, captureLog());
    try {
      assert.equal((await limits.rateLimiter.consume('hung', 1, 60_000)).allowed, true);
      proxy.swallow();
      // In Redis the limit of 1 is used up; the instance's own log is still empty.
      const { result, ms } = await timed(() => limits.rateLimiter.consume('hung', 1, 60_000));
      assert.equal(result.allowed, true, 'answered by the in-process limiter');
      assert.ok(ms < 1000, `bounded by the command timeout (${ms} ms)`);
      const lease = await timed(() => limits.concurrencyLimiter.acquire('hung', 1));
      assert.notEqual(lease.result, null);
      assert.ok(lease.ms < 1000);
    } finally {
      await limits.close();
      await proxy.down();
    }
  });
});

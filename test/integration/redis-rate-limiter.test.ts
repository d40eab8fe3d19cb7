import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { RedisLink } from '../../src/limits/redis-link.js';
import { RedisRateLimiter } from '../../src/limits/redis-rate-limiter.js';
import { redisSkip, redisUrl } from '../helpers/environment.js';
import { captureLog } from '../helpers/log-capture.js';
import { inspectionClient, randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';

async function redisNow(client: Redis): Promise<number> {
  const [seconds, microseconds] = await client.time();
  return Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000);
}

describe('Redis rate limiter', { skip: redisSkip }, () => {
  const prefix = randomRedisPrefix();
  // Two connections stand for two instances of the service.
  const links: RedisLink[] = [];
  let first: RedisRateLimiter;
  let second: RedisRateLimiter;
  let inspector: Redis;

  before(async () => {
    for (let index = 0; index < 2; index += 1) {
      const link = new RedisLink(redisUrl as string, captureLog().logger);
      assert.ok(await link.waitUntilReady(2000), 'the test Redis answers');
      links.push(link);
    }
    first = new RedisRateLimiter(links[0]!.client, prefix);
    second = new RedisRateLimiter(links[1]!.client, prefix);
    inspector = inspectionClient();
  });

  after(async () => {
    await removeRedisKeys(prefix);
    await Promise.all(links.map((link) => link.close()));
    inspector?.disconnect();
  });

  it('allows the limit, then denies with the same numbers as the in-process limiter', async () => {
    const windowMs = 60_000;
    const decisions = [];
    for (let index = 0; index < 3; index += 1) decisions.push(await first.consume('numbers', 3, windowMs));
    assert.deepEqual(
      decisions.map(({ allowed, remaining, retryAfterMs, limit }) => ({ allowed, remaining, retryAfterMs, limit })),
      [
        { allowed: true, remaining: 2, retryAfterMs: 0, limit: 3 },
        { allowed: true, remaining: 1, retryAfterMs: 0, limit: 3 },
        { allowed: true, remaining: 0, retryAfterMs: 0, limit: 3 },
      ],
    );
    const now = await redisNow(inspector);
    for (const decision of decisions) {
      // resetAt: when this request leaves the window, i.e. when the limit is full again.
      assert.ok(
        decision.resetAt > now + windowMs - 5000 && decision.resetAt <= now + windowMs,
        'resetAt is one window after the request',
      );
    }

    const denied = await second.consume('numbers', 3, windowMs);
    assert.equal(denied.allowed, false);
    assert.equal(denied.remaining, 0);
    assert.equal(denied.resetAt, decisions[2]!.resetAt, 'full again when the newest request leaves the window');
    // One more is allowed when the oldest request leaves the window.
    assert.ok(
      denied.retryAfterMs > 0 && denied.retryAfterMs <= decisions[0]!.resetAt - now + 5,
      `retryAfterMs ${denied.retryAfterMs}`,
    );
    assert.ok(denied.retryAfterMs > windowMs - 5000);
  });

  it('slides: a request is allowed again once the oldest one leaves the window', async () => {
    const windowMs = 250;
    assert.equal((await first.consume('slide', 2, windowMs)).allowed, true);
    assert.equal((await first.consume('slide', 2, windowMs)).allowed, true);
    const denied = await second.consume('slide', 2, windowMs);
    assert.equal(denied.allowed, false);
    assert.ok(denied.retryAfterMs <= windowMs);

    const allowedAfter = await waitFor(async () => (await second.consume('slide', 2, windowMs)).allowed, 3000, 20);
    assert.notEqual(allowedAfter, null, 'allowed again after the window passed');
  });

  it('is exact under a concurrent burst spread over two instances', async () => {
    const limit = 37;
    const attempts = Array.from({ length: 300 }, (_, index) =>
      (index % 2 === 0 ? first : second).consume('burst', limit, 60_000),
    );
    const decisions = await Promise.all(attempts);
    const allowed = decisions.filter((decision) => decision.allowed);
    assert.equal(allowed.length, limit);
    // Each allowed request saw a different count: remaining runs through every value once.
    assert.deepEqual(
      allowed.map((decision) => decision.remaining).sort((a, b) => a - b),
      Array.from({ length: limit }, (_, index) => index),
    );
    assert.ok(
      decisions
        .filter((decision) => !decision.allowed)
        .every((decision) => decision.remaining === 0 && decision.retryAfterMs > 0),
    );
  });

  it('keeps separate keys apart and lets idle logs expire', async () => {
    assert.equal((await first.consume('account-a', 1, 60_000)).allowed, true);
    assert.equal((await first.consume('account-b', 1, 60_000)).allowed, true);
    assert.equal((await first.consume('account-a', 1, 60_000)).allowed, false);

    const ttl = await inspector.pttl(`${prefix}rate:account-a`);
    assert.ok(ttl > 0 && ttl <= 60_000, `the log expires one window after its newest request (pttl ${ttl})`);
    assert.equal(await inspector.zcard(`${prefix}rate:account-a`), 1, 'denied requests are not logged');
  });
});

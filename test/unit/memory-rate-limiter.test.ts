import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryRateLimiter } from '../../src/limits/memory-rate-limiter.js';
import { ManualClock } from '../helpers/test-app.js';

describe('sliding-window rate limiter (in process)', () => {
  it('allows `limit` requests in any window and says when the next one is allowed', async () => {
    const clock = new ManualClock(1_000_000);
    const limiter = new MemoryRateLimiter(clock);
    const decisions = [];
    for (let index = 0; index < 3; index += 1) {
      decisions.push(await limiter.consume('k', 3, 60_000));
      clock.advance(10_000);
    }
    assert.deepEqual(
      decisions.map((decision) => [decision.allowed, decision.remaining]),
      [
        [true, 2],
        [true, 1],
        [true, 0],
      ],
    );
    const denied = await limiter.consume('k', 3, 60_000);
    assert.equal(denied.allowed, false);
    assert.equal(denied.remaining, 0);
    // The first request (at 1,000,000) leaves the window at 1,060,000; now is 1,030,000.
    assert.equal(denied.retryAfterMs, 30_000);
    assert.equal(denied.resetAt, 1_020_000 + 60_000);
    clock.advance(30_000);
    assert.equal((await limiter.consume('k', 3, 60_000)).allowed, true);
    await limiter.close();
  });

  it('does not count denied requests', async () => {
    const clock = new ManualClock();
    const limiter = new MemoryRateLimiter(clock);
    await limiter.consume('k', 1, 60_000);
    for (let index = 0; index < 5; index += 1) assert.equal((await limiter.consume('k', 1, 60_000)).allowed, false);
    clock.advance(60_000);
    assert.equal((await limiter.consume('k', 1, 60_000)).allowed, true);
    await limiter.close();
  });

  it('keeps keys apart and is exact under a concurrent burst', async () => {
    const limiter = new MemoryRateLimiter(new ManualClock());
    const results = await Promise.all(Array.from({ length: 100 }, () => limiter.consume('burst', 10, 60_000)));
    assert.equal(results.filter((result) => result.allowed).length, 10);
    assert.equal((await limiter.consume('other', 10, 60_000)).allowed, true);
    await limiter.close();
  });

  it('reports resetAt as the time the window is full again', async () => {
    const clock = new ManualClock(5_000);
    const limiter = new MemoryRateLimiter(clock);
    await limiter.consume('k', 5, 60_000);
    clock.advance(1_000);
    const second = await limiter.consume('k', 5, 60_000);
    assert.equal(second.resetAt, 6_000 + 60_000);
    assert.equal(second.remaining, 3);
    await limiter.close();
  });
});

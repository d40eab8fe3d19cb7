import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import type { ConcurrencyLease } from '../../src/limits/concurrency-limiter.js';
import { RedisConcurrencyLimiter } from '../../src/limits/redis-concurrency-limiter.js';
import { RedisLink } from '../../src/limits/redis-link.js';
import { redisSkip, redisUrl } from '../helpers/environment.js';
import { captureLog } from '../helpers/log-capture.js';
import { inspectionClient, randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { testScriptArguments } from '../helpers/repository.js';
import { waitFor } from '../helpers/wait.js';

const holdLeasesScript = testScriptArguments('test/fixtures/hold-leases');

describe('Redis concurrency limiter', { skip: redisSkip }, () => {
  const prefix = randomRedisPrefix();
  const links: RedisLink[] = [];
  const limiters: RedisConcurrencyLimiter[] = [];
  let inspector: Redis;

  /** A limiter on a connection of its own: another instance of the service. */
  async function instance(leaseMs = 30_000, refreshEveryMs?: number): Promise<RedisConcurrencyLimiter> {
    const link = new RedisLink(redisUrl as string, captureLog().logger);
    assert.ok(await link.waitUntilReady(2000), 'the test Redis answers');
    links.push(link);
    const limiter = new RedisConcurrencyLimiter(link.client, prefix, captureLog().logger, {
      leaseMs,
      ...(refreshEveryMs ? { refreshEveryMs } : {}),
    });
    limiters.push(limiter);
    return limiter;
  }

  before(() => {
    inspector = inspectionClient();
  });

  after(async () => {
    await Promise.all(limiters.map((limiter) => limiter.close()));
    await Promise.all(links.map((link) => link.close()));
    await removeRedisKeys(prefix);
    inspector?.disconnect();
  });

  it('grants at most max leases at once and frees a slot on release', async () => {
    const limiter = await instance();
    const leases = [];
    for (let index = 0; index < 3; index += 1) leases.push(await limiter.acquire('basic', 3));
    assert.ok(leases.every((lease) => lease !== null));
    assert.equal(await limiter.acquire('basic', 3), null);
    assert.notEqual(await limiter.acquire('other-agent', 3), null, 'another key has its own slots');

    await leases[0]!.release();
    await leases[0]!.release(); // releasing twice frees one slot, not two
    const again = await limiter.acquire('basic', 3);
    assert.notEqual(again, null);
    assert.equal(await limiter.acquire('basic', 3), null);
    assert.equal(await inspector.zcard(`${prefix}concurrency:basic`), 3);
  });

  it('is exact under concurrent acquires from two instances', async () => {
    const [first, second] = [await instance(), await instance()];
    const attempts = Array.from({ length: 120 }, (_, index) => (index % 2 === 0 ? first : second).acquire('burst', 7));
    const leases = (await Promise.all(attempts)).filter((lease): lease is ConcurrencyLease => lease !== null);
    assert.equal(leases.length, 7);
    await Promise.all(leases.map((lease) => lease.release()));
    assert.equal(await inspector.zcard(`${prefix}concurrency:burst`), 0, 'every released slot is free');
  });

  it('keeps a held lease alive past its lease time by refreshing it', async () => {
    const holder = await instance(500, 100);
    const other = await instance(500, 100);
    const lease = await holder.acquire('refreshed', 1);
    assert.notEqual(lease, null);
    // Three lease times later the slot is still taken: the refresh timer kept it.
    const freed = await waitFor(async () => (await other.acquire('refreshed', 1)) !== null, 1500);
    assert.equal(freed, null, 'the slot stayed held while its holder was alive');
    await lease!.release();
    assert.notEqual(await other.acquire('refreshed', 1), null);
  });

  it('frees the slots of an instance that is killed while holding them, within one lease time', async () => {
    const leaseMs = 1000;
    const observer = await instance();
    const child = spawn(
      process.execPath,
      [...holdLeasesScript, redisUrl as string, prefix, 'killed', '2', '2', String(leaseMs), '200'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += String(chunk);
      });
      const held = await waitFor(async () => output.includes('held'), 15_000);
      assert.notEqual(held, null, 'the holder took its leases');

      // Alive, the holder keeps both slots beyond two lease times.
      assert.equal(await waitFor(async () => (await observer.acquire('killed', 2)) !== null, 2 * leaseMs + 500), null);

      child.kill('SIGKILL');
      await once(child, 'exit');
      assert.equal(await observer.acquire('killed', 2), null, 'right after the kill the leases still run');
      const freedAfter = await waitFor(async () => (await observer.acquire('killed', 2)) !== null, leaseMs + 1500);
      assert.notEqual(freedAfter, null, 'a slot is free again once the lease ran out');
      assert.ok(freedAfter! <= leaseMs + 250, `freed ${freedAfter} ms after the kill (lease ${leaseMs} ms)`);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('releases what it still holds when closed', async () => {
    const closing = await instance();
    const other = await instance();
    assert.notEqual(await closing.acquire('closed', 1), null);
    assert.equal(await other.acquire('closed', 1), null);
    await closing.close();
    assert.notEqual(await other.acquire('closed', 1), null);
  });
});

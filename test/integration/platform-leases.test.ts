import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { PostgresPlatformLeases, RedisPlatformLeases } from '../../src/limits/platform-lease.js';
import { RedisLink } from '../../src/limits/redis-link.js';
import { databaseUrl, postgresSkip, redisSkip, redisUrl } from '../helpers/environment.js';
import { captureLog } from '../helpers/log-capture.js';
import { inspectionClient, randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';

describe('platform leases in Redis', { skip: redisSkip }, () => {
  const prefix = randomRedisPrefix();
  const links: RedisLink[] = [];
  let inspector: Redis | null = null;

  async function instance(ttlMs: number): Promise<RedisPlatformLeases> {
    const link = new RedisLink(redisUrl as string, captureLog().logger);
    assert.ok(await link.waitUntilReady(2000));
    links.push(link);
    return new RedisPlatformLeases(link, prefix, ttlMs, captureLog().logger);
  }

  after(async () => {
    for (const link of links) await link.close();
    inspector?.disconnect();
    await removeRedisKeys(prefix);
  });

  it('gives a lease to one instance at a time, keeps it renewed, and frees it on release', async () => {
    const [first, second] = [await instance(600), await instance(600)];
    const held = await first.tryAcquire('agt_1:telegram');
    assert.ok(held);
    assert.equal(await second.tryAcquire('agt_1:telegram'), null);
    // Renewed past several times to live while its holder lives.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(held.lost.aborted, false);
    assert.equal(await second.tryAcquire('agt_1:telegram'), null);
    await held.release();
    const taken = await second.tryAcquire('agt_1:telegram');
    assert.ok(taken, 'free once released');
    await taken.release();
  });

  it('is taken over after its time to live when the holder stops renewing, and the old holder learns it lost it', async () => {
    const [first, second] = [await instance(500), await instance(500)];
    const held = await first.tryAcquire('agt_2:telegram');
    assert.ok(held);
    // The holder's process freezes: its key is removed as if it had expired, and another instance takes it.
    inspector = inspectionClient();
    await inspector.del(`${prefix}platform-lease:agt_2:telegram`);
    const taken = await second.tryAcquire('agt_2:telegram');
    assert.ok(taken);
    assert.notEqual(await waitFor(() => held.lost.aborted, 2000), null, 'the old holder gives up');
    await held.release(); // compare-and-delete: leaves the new holder's lease alone
    assert.equal(await first.tryAcquire('agt_2:telegram'), null, 'still held by the new holder');
    await taken.release();
  });
});

describe('platform leases in PostgreSQL advisory locks', { skip: postgresSkip }, () => {
  it('gives a lease to one connection at a time and frees it when its holder closes', async () => {
    const name = `agt_${Date.now()}:telegram`;
    const first = new PostgresPlatformLeases(databaseUrl as string, captureLog().logger, 200);
    const second = new PostgresPlatformLeases(databaseUrl as string, captureLog().logger, 200);
    try {
      const held = await first.tryAcquire(name);
      assert.ok(held);
      assert.equal(await second.tryAcquire(name), null);
      await first.close(); // the connection ends, as a killed process's would
      assert.equal(held.lost.aborted, true);
      const taken = await second.tryAcquire(name);
      assert.ok(taken, 'free once its holder is gone');
      await taken.release();
    } finally {
      await first.close();
      await second.close();
    }
  });
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TakenItem } from '../../src/platforms/platform.js';
import { PlatformItemClaims } from '../../src/services/platforms/platform-items.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { Migrator } from 'kysely';
import { migrateToLatest, migrations } from '../../src/storage/migrate.js';
import { PlatformItemRepository } from '../../src/storage/repositories/platform-items.js';
import { databaseUrl, postgresSkip } from '../helpers/environment.js';
import { captureLog } from '../helpers/log-capture.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';

/**
 * The one record of inbound platform items (docs/platform-input.md): an item
 * is recorded with a claim (owner, token, expiry) before it is answered;
 * a second take is refused while the claim lives or once answered; an
 * unanswered item whose claim ran out is taken over by exactly one of the
 * instances that look; a lost claim can neither be renewed nor mark the item
 * answered; and the sweep hands what it takes over to the connector running
 * on its instance, giving up an item tried too often or taken a day ago.
 */
const claimMs = 3_000;
const at = (ms: number) => new Date(Date.parse('2026-11-27T10:00:00.000Z') + ms).toISOString();
const claimOf = (owner: string, token: string, now: number) => ({ owner, token, expiresAt: at(now + claimMs) });

function itemChecks(handles: () => DatabaseHandle[]) {
  it('records an item once, refuses a second take while its claim lives, and once answered', async () => {
    const [one, two] = handles().map((handle) => new PlatformItemRepository(handle.db));
    const key = { agentId: `agt_take${Date.now()}`, type: 'slack', itemId: 'Ev1' };
    const first = await one!.take(key, '{"event":1}', claimOf('first', 'token-1', 0), at(0));
    assert.deepEqual(first, { pending: '{"event":1}', attempts: 1, takenAt: at(0) });
    assert.equal(
      await two!.take(key, '{"event":1}', claimOf('second', 'token-2', 1000), at(1000)),
      null,
      'claim lives',
    );
    assert.equal(await two!.renew(key, 'token-2', at(9000)), false, 'not the other instance’s to renew');
    assert.equal(await one!.renew(key, 'token-1', at(5000)), true);
    assert.equal(await two!.take(key, '{"event":1}', claimOf('second', 'token-2', 4000), at(4000)), null, 'renewed');
    assert.equal(await two!.markAnswered(key, 'token-2', at(4000)), false, 'nor to mark answered');
    assert.equal(await one!.markAnswered(key, 'token-1', at(4500)), true);
    assert.equal(await two!.take(key, '{"event":1}', claimOf('second', 'token-3', 60_000), at(60_000)), null);
    assert.deepEqual(await two!.expired(at(60_000), 100), []);
    const row = await one!.find(key);
    assert.equal(row?.answered_at, at(4500));
    assert.equal(row?.pending, null, 'the item itself is not kept once answered');
  });

  it('hands an unanswered item whose claim ran out to exactly one taker, and the old owner loses it', async () => {
    const [one, two] = handles().map((handle) => new PlatformItemRepository(handle.db));
    const key = { agentId: `agt_over${Date.now()}`, type: 'telegram', itemId: '41' };
    assert.ok(await one!.take(key, '{"update_id":41}', claimOf('dead', 'dead-token', 0), at(0)));
    assert.equal(await two!.takeOver(key, claimOf('early', 'early', 1000), at(1000)), null, 'not before it runs out');
    const expired = await one!.expired(at(claimMs + 1), 100);
    assert.ok(expired.some((item) => item.agentId === key.agentId && item.attempts === 1));
    // Two live instances look at once (a sweep, and a second delivery): exactly one wins.
    const later = claimMs + 1;
    const [a, b] = await Promise.all([
      one!.takeOver(key, claimOf('first', 'token-a', later), at(later)),
      two!.take(key, '{"update_id":41}', claimOf('second', 'token-b', later), at(later)),
    ]);
    assert.equal([a, b].filter((taken) => taken !== null).length, 1, 'one taker');
    const winner = (a ?? b)!;
    assert.deepEqual(winner, { pending: '{"update_id":41}', attempts: 2, takenAt: at(0) });
    const token = a !== null ? 'token-a' : 'token-b';
    assert.equal(await one!.renew(key, 'dead-token', at(later + claimMs)), false, 'the dead owner cannot renew');
    assert.equal(await one!.markAnswered(key, 'dead-token', at(later)), false, 'nor mark it answered');
    // Released (its connector stopped): taken over at once, one more attempt.
    await two!.release(key, token, at(later + 10));
    const again = await one!.takeOver(key, claimOf('first', 'token-c', later + 20), at(later + 20));
    assert.equal(again?.attempts, 3);
    assert.equal(await one!.markAnswered(key, 'token-c', at(later + 30)), true);
    assert.equal(await two!.takeOver(key, claimOf('second', 'token-d', 99_000), at(99_000)), null, 'answered');
  });

  it('sweeps: a connector running on the instance answers what it takes over, once across two instances', async () => {
    const [one, two] = handles().map((handle) => new PlatformItemRepository(handle.db));
    const agentId = `agt_sweep${Date.now()}`;
    let now = Date.parse(at(0));
    const clock = { now: () => now };
    const log = captureLog();
    const claims = [one!, two!].map(
      (items, index) =>
        new PlatformItemClaims({ items, instanceId: `instance-${index}`, clock, logger: log.logger, claimMs }),
    );
    const answered: string[] = [];
    const stopped = new AbortController();
    for (const instance of claims) {
      instance.register(
        agentId,
        'slack',
        async (taken: TakenItem) => {
          answered.push(`${taken.itemId} #${taken.attempts}`);
          return true;
        },
        stopped.signal,
      );
    }
    const key = (itemId: string) => ({ agentId, type: 'slack', itemId });
    // Three items of a dead instance: one fresh, one tried three times already, one taken over a day ago.
    await one!.take(key('fresh'), '{}', claimOf('dead', 'd1', 0), at(0));
    await one!.take(key('fatal'), '{}', claimOf('dead', 'd2', 0), at(0));
    for (const attempt of [2, 3]) {
      const takenAt = attempt * (claimMs + 1);
      assert.ok(await one!.takeOver(key('fatal'), claimOf('dead', `d2-${attempt}`, takenAt), at(takenAt)));
    }
    await one!.take(key('stale'), '{}', claimOf('dead', 'd3', -25 * 3_600_000), at(-25 * 3_600_000));
    // An item of an agent whose connector runs on neither instance stays as it is.
    await one!.take(
      { agentId: `${agentId}x`, type: 'slack', itemId: 'elsewhere' },
      '{}',
      claimOf('dead', 'd4', 0),
      at(0),
    );

    now = Date.parse(at(5 * claimMs));
    await Promise.all(claims.map((instance) => instance.sweep()));
    await Promise.all(claims.map((instance) => instance.idle()));
    stopped.abort();
    for (const instance of claims) instance.close();
    assert.deepEqual(answered, ['fresh #2'], 'answered once, by one instance');
    assert.equal((await one!.find(key('fresh')))?.answered_at !== null, true);
    const warnings = log.entries().filter((entry) => entry.level === 40);
    assert.ok(warnings.some((entry) => entry.msg === 'platform item given up after repeated takeovers'));
    assert.ok(warnings.some((entry) => entry.msg === 'platform item given up: taken more than a day ago'));
    for (const itemId of ['fatal', 'stale']) assert.notEqual((await one!.find(key(itemId)))?.answered_at, null);
    const untouched = await one!.find({ agentId: `${agentId}x`, type: 'slack', itemId: 'elsewhere' });
    assert.equal(untouched?.answered_at, null);
    assert.equal(untouched?.attempts, 1);
  });
}

describe('migration 0030 on SQLite', () => {
  it('moves what was left unanswered (a Telegram update, an X mention) into item records whose claims ran out', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-migrate-items-'));
    const handle = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'agentd.sqlite') });
    try {
      const names = Object.keys(migrations('sqlite')).sort();
      const before = names[names.indexOf('0030-platform-item-claims') - 1]!;
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations('sqlite') } });
      assert.equal((await migrator.migrateTo(before)).error, undefined);
      const db = handle.db as any;
      const takenAt = '2026-11-27T10:00:00.000Z';
      await db
        .insertInto('platform_states')
        .values({
          agent_id: 'agt_migrated',
          type: 'telegram',
          state: 'running',
          position: '00000000000000000041',
          pending_item: JSON.stringify({ attempts: 2, pending: '{"update_id":41}' }),
          updated_at: takenAt,
        })
        .execute();
      const item = (item_id: string, pending: string | null) => ({
        agent_id: 'agt_migrated',
        type: 'x',
        item_id,
        claimed_at: takenAt,
        pending,
        attempts: 1,
      });
      await db
        .insertInto('platform_items')
        .values([item('1801', '{"id":"1801"}'), item('1800', null)])
        .execute();
      await migrateToLatest(handle);

      const items = new PlatformItemRepository(handle.db);
      const expired = await items.expired(new Date().toISOString(), 100);
      assert.deepEqual(
        expired
          .filter((each) => each.agentId === 'agt_migrated')
          .map((each) => [each.type, each.itemId, each.attempts])
          .sort(),
        [
          ['telegram', '41', 2],
          ['x', '1801', 1],
        ],
        'taken over by the next sweep',
      );
      const update = await items.find({ agentId: 'agt_migrated', type: 'telegram', itemId: '41' });
      assert.equal(update?.pending, '{"update_id":41}');
      const answered = await items.find({ agentId: 'agt_migrated', type: 'x', itemId: '1800' });
      assert.equal(answered?.answered_at, takenAt, 'no longer pending: answered');
    } finally {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('platform items on SQLite', () => {
  let dataDir: string;
  let handle: DatabaseHandle;
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-pending-'));
    handle = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'agentd.sqlite') });
    await migrateToLatest(handle);
  });
  after(async () => {
    await handle?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  itemChecks(() => [handle, handle]);
});

describe('platform items on PostgreSQL from two instances', { skip: postgresSkip }, () => {
  let database: FreshDatabase;
  let handles: DatabaseHandle[];
  before(async () => {
    database = await createFreshDatabase(databaseUrl);
    handles = [0, 1].map(() => openDatabase({ kind: 'postgres', url: database.url, poolSize: 4 }));
    await migrateToLatest(handles[0]!);
  });
  after(async () => {
    for (const handle of handles ?? []) await handle.close();
    await database?.drop();
  });
  itemChecks(() => handles);
});

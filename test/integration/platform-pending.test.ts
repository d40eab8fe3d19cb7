import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { PlatformStateRepository } from '../../src/storage/repositories/platform-states.js';
import { databaseUrl, postgresSkip } from '../helpers/environment.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';

/**
 * A connector's taken-but-unanswered item (a Telegram update whose holder
 * died while answering it): kept with the position it was taken at, each
 * attempt at it handed to exactly one of the instances that look for it after
 * a takeover, counted per attempt, and cleared when answered, never by a stale
 * holder after the position moved on. The same for the several items an X or
 * Bluesky poller answers at once, kept with their takes in platform_items.
 */
function pendingChecks(handles: () => DatabaseHandle[]) {
  it('keeps the item taken until it is settled, and hands each attempt at it to one taker', async () => {
    const [one, two] = handles().map((handle) => new PlatformStateRepository(handle.db));
    const agentId = `agt_pending${Date.now()}`;
    await one!.ensure(agentId, 'telegram', new Date().toISOString());
    assert.equal(await one!.retakePending(agentId, 'telegram'), null, 'nothing pending before a take');

    assert.equal(await one!.claimPosition(agentId, 'telegram', 41, '{"update_id":41}'), true);
    assert.equal(await two!.claimPosition(agentId, 'telegram', 41, '{"update_id":41}'), false, 'taken once');
    // The holder died before settling: two instances look for it at once. Each attempt goes to exactly one of
    // them; a look that reads the item after the other's retake of it counts one more attempt and takes that one.
    const retakes = await Promise.all([
      one!.retakePending(agentId, 'telegram'),
      two!.retakePending(agentId, 'telegram'),
    ]);
    const taken = retakes.filter((retake) => retake !== null);
    assert.ok(taken.length >= 1, 'one of them takes it');
    assert.deepEqual(
      taken.map((retake) => retake.attempts).sort(),
      [2, 3].slice(0, taken.length),
      'no attempt handed out twice',
    );
    for (const retake of taken) assert.equal(retake.pending, '{"update_id":41}');
    assert.deepEqual(await one!.retakePending(agentId, 'telegram'), {
      pending: '{"update_id":41}',
      attempts: 2 + taken.length,
    });

    await one!.settlePosition(agentId, 'telegram', 41);
    assert.equal(await two!.retakePending(agentId, 'telegram'), null, 'nothing pending once answered');
    assert.equal(await one!.position(agentId, 'telegram'), 41, 'the position stays');
  });

  it('replaces the pending item at the next take, and a stale settle leaves the new one alone', async () => {
    const [one, two] = handles().map((handle) => new PlatformStateRepository(handle.db));
    const agentId = `agt_stale${Date.now()}`;
    await one!.ensure(agentId, 'telegram', new Date().toISOString());
    assert.equal(await one!.claimPosition(agentId, 'telegram', 7, 'seven'), true);
    assert.equal(await two!.claimPosition(agentId, 'telegram', 8, 'eight'), true);
    await one!.settlePosition(agentId, 'telegram', 7);
    assert.deepEqual(await two!.retakePending(agentId, 'telegram'), { pending: 'eight', attempts: 2 });
    // A take without an item (a connector that does not keep them) leaves nothing pending.
    assert.equal(await one!.claimPosition(agentId, 'telegram', 9), true);
    assert.equal(await one!.retakePending(agentId, 'telegram'), null);
  });

  it('keeps every item taken with its item until settled, each retaken by one taker, oldest first', async () => {
    const [one, two] = handles().map((handle) => new PlatformStateRepository(handle.db));
    const agentId = `agt_items${Date.now()}`;
    const at = (minute: number) => `2026-11-27T10:0${minute}:00.000Z`;
    assert.deepEqual(await one!.retakePendingItems(agentId, 'x'), [], 'nothing pending before a take');
    // Four mentions in flight at once (a poller answers up to four), and one taken without an item.
    for (const [minute, id] of ['1801', '1802', '1803', '1804'].entries()) {
      assert.equal(await one!.claimItem(agentId, 'x', id, at(minute), `{"id":"${id}"}`), true);
    }
    assert.equal(await two!.claimItem(agentId, 'x', '1802', at(5), '{"id":"1802"}'), false, 'taken once');
    assert.equal(await one!.claimItem(agentId, 'x', '1805', at(5)), true);
    await one!.settleItem(agentId, 'x', '1803');
    // Another type of the same agent keeps its own.
    assert.equal(await one!.claimItem(agentId, 'bluesky', 'at://one', at(0), 'sky'), true);

    // The holder died: two instances look at once. Each attempt at an item goes to exactly one of them; a look
    // that reads an item after the other's retake of it counts one more attempt and takes that one.
    const [first, second] = await Promise.all([
      one!.retakePendingItems(agentId, 'x'),
      two!.retakePendingItems(agentId, 'x'),
    ]);
    const retaken = [...first!, ...second!];
    const attempts = retaken.map((item) => `${item.itemId} #${item.attempts}`);
    assert.equal(new Set(attempts).size, attempts.length, `no attempt handed out twice: ${attempts.join(', ')}`);
    const takes = { '1801': at(0), '1802': at(1), '1804': at(3) };
    assert.deepEqual(
      retaken.filter((item) => item.attempts === 2).sort((a, b) => a.itemId.localeCompare(b.itemId)),
      Object.entries(takes).map(([itemId, takenAt]) => ({
        itemId,
        pending: `{"id":"${itemId}"}`,
        attempts: 2,
        takenAt,
      })),
      'each pending item, with its take, handed out at its second attempt',
    );
    const lastAttempt = (itemId: string) =>
      Math.max(...retaken.filter((item) => item.itemId === itemId).map((item) => item.attempts));
    const again = await one!.retakePendingItems(agentId, 'x');
    assert.deepEqual(
      again.map((item) => [item.itemId, item.attempts]),
      Object.keys(takes).map((itemId) => [itemId, lastAttempt(itemId) + 1]),
      'oldest take first, one more attempt each',
    );

    await one!.settleItem(agentId, 'x', '1801');
    await two!.settleItem(agentId, 'x', '1804');
    assert.deepEqual(
      (await two!.retakePendingItems(agentId, 'x')).map((item) => item.itemId),
      ['1802'],
      'settled items are no longer pending',
    );
    assert.equal(await two!.claimItem(agentId, 'x', '1801', at(6), 'again'), false, 'a settled item stays taken');
    assert.deepEqual(
      (await one!.retakePendingItems(agentId, 'bluesky')).map((item) => [item.itemId, item.pending]),
      [['at://one', 'sky']],
    );

    // The week's sweep forgets claims, pending or not.
    await one!.sweepItems(agentId, 'x', at(9));
    assert.deepEqual(await one!.retakePendingItems(agentId, 'x'), []);
    assert.equal(await one!.claimItem(agentId, 'x', '1802', at(9)), true);
  });
}

describe('pending platform items on SQLite', () => {
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
  pendingChecks(() => [handle, handle]);
});

describe('pending platform items on PostgreSQL from two instances', { skip: postgresSkip }, () => {
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
  pendingChecks(() => handles);
});

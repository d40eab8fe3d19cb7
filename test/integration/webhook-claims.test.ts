import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isoTime } from '../../src/clock.js';
import { newId } from '../../src/ids.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { WebhookDeliveryRepository } from '../../src/storage/repositories/webhook-deliveries.js';
import { databaseUrl, postgresSkip } from '../helpers/environment.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';

/**
 * The outbox claim is what makes one instance, and only one, make each
 * attempt: several claimers (separate connection pools, as separate
 * instances have) race over the same due deliveries, and every delivery is
 * claimed exactly once.
 */
const deliveries = 300;
const claimers = 4;

async function raceClaims(handles: DatabaseHandle[]): Promise<Map<string, number>> {
  const claimedBy = new Map<string, number>();
  const repositories = handles.map((handle) => new WebhookDeliveryRepository(handle.db, handle.dialect));
  const now = isoTime(Date.now());
  const lease = isoTime(Date.now() + 60_000);
  await Promise.all(
    Array.from({ length: claimers }, async (_, claimer) => {
      const repository = repositories[claimer % repositories.length]!;
      for (;;) {
        const claimed = await repository.claimDue(now, lease, `claimer-${claimer}`, 16);
        if (claimed.length === 0) return;
        for (const delivery of claimed) {
          claimedBy.set(delivery.id, (claimedBy.get(delivery.id) ?? 0) + 1);
          assert.equal(delivery.claimToken, `claimer-${claimer}`);
        }
      }
    }),
  );
  return claimedBy;
}

async function insertDue(handle: DatabaseHandle): Promise<void> {
  const repository = new WebhookDeliveryRepository(handle.db, handle.dialect);
  const createdAt = isoTime(Date.now() - 1000);
  await repository.insert(
    Array.from({ length: deliveries }, () => ({
      id: newId('delivery'),
      webhookId: 'whk_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      accountId: 'acc_claims',
      eventId: newId('event'),
      eventType: 'agent.created',
      payload: '{}',
      createdAt,
    })),
  );
}

describe('outbox claims on SQLite', () => {
  let dataDir: string;
  let handle: DatabaseHandle;
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-claims-'));
    handle = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'agentd.sqlite') });
    await migrateToLatest(handle);
    await insertDue(handle);
  });
  after(async () => {
    await handle?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('hands each due delivery to exactly one of several concurrent claimers', async () => {
    const claimedBy = await raceClaims([handle]);
    assert.equal(claimedBy.size, deliveries);
    assert.ok([...claimedBy.values()].every((count) => count === 1));
  });
});

describe('outbox claims on PostgreSQL from two instances', { skip: postgresSkip }, () => {
  let database: FreshDatabase;
  let handles: DatabaseHandle[];
  before(async () => {
    database = await createFreshDatabase(databaseUrl);
    handles = [0, 1].map(() => openDatabase({ kind: 'postgres', url: database.url, poolSize: 4 }));
    await migrateToLatest(handles[0]!);
    await insertDue(handles[0]!);
  });
  after(async () => {
    for (const handle of handles ?? []) await handle.close();
    await database?.drop();
  });

  it('hands each due delivery to exactly one claimer (FOR UPDATE SKIP LOCKED and a re-checked condition)', async () => {
    const claimedBy = await raceClaims(handles);
    assert.equal(claimedBy.size, deliveries);
    assert.ok([...claimedBy.values()].every((count) => count === 1));
  });
});

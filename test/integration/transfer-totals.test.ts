import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/clock.js';
import { spendingLedger } from '../../src/plugins/spending-ledger.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The daily totals the `evm` plugin's transfers are limited by, on each
 * store: reservations made at once (over the connections of PostgreSQL's
 * pool, as several instances would) never pass the limit together, a
 * released reservation is given back, and each agent and day counts alone.
 */

for (const backend of backends) {
  describe(`daily transfer totals on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    let now = Date.parse('2026-03-01T23:59:59.000Z');
    const clock: Clock = { now: () => now };
    before(async () => {
      t = await createTestApp({ backend: backend.name, clock });
    });
    after(async () => t?.close());

    const ledgerOf = (agentId: string) => spendingLedger(t.deps.services.repositories.transferTotals, agentId, clock);
    const entry = { chainId: 1, asset: 'native', amount: 3n };

    it('lets only as many reservations made at once pass as fit under the limit', async () => {
      const ledger = ledgerOf('agt_concurrent');
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => ledger.reserve(entry, 20n)));
      assert.equal(outcomes.filter((outcome) => outcome.reserved).length, 6, 'six times 3 fit under 20');
      assert.equal(await ledger.spentToday(entry), 18n);
      const refused = await ledger.reserve(entry, 20n);
      assert.deepEqual(refused, { reserved: false, total: 18n });
    });

    it('gives a released reservation back, on the day it was made', async () => {
      const ledger = ledgerOf('agt_release');
      const first = await ledger.reserve(entry, 10n);
      assert.ok(first.reserved);
      assert.equal(first.total, 3n);
      now += 2_000; // past midnight: the release still takes the amount from the day it was reserved on
      await first.release();
      now -= 2_000;
      assert.equal(await ledger.spentToday(entry), 0n);
    });

    it('counts each agent, chain, asset and day apart, and amounts past 2^64', async () => {
      const huge = 10n ** 30n;
      const ledger = ledgerOf('agt_apart');
      assert.ok((await ledger.reserve({ ...entry, amount: huge }, huge)).reserved);
      assert.ok((await ledgerOf('agt_other').reserve({ ...entry, amount: huge }, huge)).reserved);
      assert.ok((await ledger.reserve({ ...entry, chainId: 10, amount: huge }, huge)).reserved);
      assert.ok((await ledger.reserve({ ...entry, asset: '0xtoken', amount: huge }, huge)).reserved);
      assert.equal((await ledger.reserve({ ...entry, amount: 1n }, huge)).reserved, false);
      now += 2_000;
      assert.ok((await ledger.reserve({ ...entry, amount: huge }, huge)).reserved, 'a new UTC day starts from zero');
      now -= 2_000;
    });
  });
}

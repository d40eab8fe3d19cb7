import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/clock.js';
import { spendingLedger } from '../../src/plugins/spending-ledger.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The daily totals the `evm` plugin's transfers are limited by, on each
 * store: reservations made at once (over the connections of PostgreSQL's
 * pool, as several instances would) never pass the limit together, the
 * entries of one reservation (an amount, its fee, the day's count of
 * transfers) count all or none, a released reservation is given back, and
 * each agent and day counts alone.
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
    const within = (limit: bigint, changes: Partial<typeof entry> = {}) => ({ ...entry, ...changes, limit });

    it('lets only as many reservations made at once pass as fit under the limit', async () => {
      const ledger = ledgerOf('agt_concurrent');
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => ledger.reserve([within(20n)])));
      assert.equal(outcomes.filter((outcome) => outcome.reserved).length, 6, 'six times 3 fit under 20');
      assert.equal(await ledger.spentToday(entry), 18n);
      const refused = await ledger.reserve([within(20n)]);
      assert.deepEqual(refused, { reserved: false, refused: 0, total: 18n });
    });

    it('a daily count of transfers: reservations made at once never pass the count, and count with their amounts', async () => {
      const ledger = ledgerOf('agt_counted');
      const count = { chainId: 1, asset: 'transfers', amount: 1n, limit: 5n };
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => ledger.reserve([within(1_000n), count])));
      assert.equal(outcomes.filter((outcome) => outcome.reserved).length, 5, 'five transfers a day');
      assert.ok(outcomes.every((outcome) => outcome.reserved || outcome.refused === 1));
      assert.equal(await ledger.spentToday({ chainId: 1, asset: 'transfers' }), 5n);
      assert.equal(await ledger.spentToday(entry), 15n, 'the refused ones left no amount counted');
    });

    it('gas counts against the daily limit: an amount and its fee are counted together or not at all', async () => {
      const ledger = ledgerOf('agt_fee');
      const token = within(10n, { asset: '0xtoken', amount: 5n });
      const fee = within(5n, { amount: 7n });
      const refused = await ledger.reserve([token, fee]);
      assert.deepEqual(refused, { reserved: false, refused: 1, total: 0n });
      assert.equal(await ledger.spentToday(token), 0n, 'the token amount was not counted without its fee');
      const reserved = await ledger.reserve([token, within(10n, { amount: 7n })]);
      assert.ok(reserved.reserved);
      assert.deepEqual(reserved.totals, [5n, 7n]);
      await reserved.release();
      assert.equal(await ledger.spentToday(token), 0n);
      assert.equal(await ledger.spentToday(entry), 0n, 'a release gives back every amount');
    });

    it('gives a released reservation back, on the day it was made', async () => {
      const ledger = ledgerOf('agt_release');
      const first = await ledger.reserve([within(10n)]);
      assert.ok(first.reserved);
      assert.deepEqual(first.totals, [3n]);
      now += 2_000; // past midnight: the release still takes the amount from the day it was reserved on
      await first.release();
      now -= 2_000;
      assert.equal(await ledger.spentToday(entry), 0n);
    });

    it('counts each agent, chain, asset and day apart, and amounts past 2^64', async () => {
      const huge = 10n ** 30n;
      const ledger = ledgerOf('agt_apart');
      assert.ok((await ledger.reserve([within(huge, { amount: huge })])).reserved);
      assert.ok((await ledgerOf('agt_other').reserve([within(huge, { amount: huge })])).reserved);
      assert.ok((await ledger.reserve([within(huge, { chainId: 10, amount: huge })])).reserved);
      assert.ok((await ledger.reserve([within(huge, { asset: '0xtoken', amount: huge })])).reserved);
      assert.equal((await ledger.reserve([within(huge, { amount: 1n })])).reserved, false);
      now += 2_000;
      assert.ok((await ledger.reserve([within(huge, { amount: huge })])).reserved, 'a new UTC day starts from zero');
      now -= 2_000;
    });
  });
}

import { isoTime, type Clock } from '../clock.js';
import type { TransferTotalRepository } from '../storage/repositories/transfer-totals.js';
import type { SpendingLedger } from './plugin.js';

/** One agent's spending per UTC day, on the totals every instance shares. */
export function spendingLedger(totals: TransferTotalRepository, agentId: string, clock: Clock): SpendingLedger {
  const today = () => isoTime(clock.now()).slice(0, 10);
  return {
    async reserve(entries) {
      // The day is fixed at reservation: a release after midnight takes the amounts back from the right day.
      const day = today();
      const increases = entries.map(({ chainId, asset, amount, limit }) => ({
        key: { agentId, chainId, asset, day },
        amount,
        limit,
      }));
      const outcome = await totals.reserve(increases, isoTime(clock.now()));
      if (!outcome.reserved) return outcome;
      return { ...outcome, release: () => totals.release(increases, isoTime(clock.now())) };
    },
    spentToday: ({ chainId, asset }) => totals.total({ agentId, chainId, asset, day: today() }),
  };
}

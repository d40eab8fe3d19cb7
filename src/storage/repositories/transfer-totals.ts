import type { ExpressionBuilder } from 'kysely';
import { inTransaction, type Database, type Dialect, type Executor } from '../schema.js';

/**
 * One day's transfers of one agent on one chain: in one asset (`native` or a
 * token's lower-case address), or their count (`transfers`).
 */
export interface TransferTotalKey {
  agentId: string;
  chainId: number;
  asset: string;
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
}

/** One amount to add to one day's total, and the most that total may reach. */
export interface TotalIncrease {
  key: TransferTotalKey;
  amount: bigint;
  limit: bigint;
}

export type Reservation =
  | { reserved: true; totals: bigint[] }
  /** `refused`: the first increase (in the order given) that would pass its limit; `total` its total as it stays. */
  | { reserved: false; refused: number; total: bigint };

/**
 * The per-day totals the `evm` plugin's daily limits are checked against
 * (migration 0014): amounts per asset, and the count of transfers under the
 * asset `transfers`. A reservation reads and raises its totals in one
 * transaction, all or none: on PostgreSQL each row is locked (`for update`)
 * once it exists, and SQLite runs one write transaction at a time, so two
 * transfers at once, on one instance or several, cannot both pass a limit.
 */
export class TransferTotalRepository {
  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
  ) {}

  /** Adds each amount to its day's total unless any total would pass its limit; the totals after, in order. */
  async reserve(increases: readonly TotalIncrease[], now: string): Promise<Reservation> {
    return inTransaction(this.db, async (transaction) => {
      const current = new Map<number, bigint>();
      // Rows are locked in one order whatever order the caller gave them in, so that two reservations of the
      // same rows (a transfer's native fee and its count) cannot each hold one and wait for the other.
      for (const index of lockOrder(increases)) {
        const { key } = increases[index]!;
        await transaction
          .insertInto('evm_transfer_totals')
          .values({ ...row(key), total: '0', updated_at: now })
          .onConflict((conflict) => conflict.columns(['agent_id', 'chain_id', 'asset', 'day']).doNothing())
          .execute();
        let query = transaction.selectFrom('evm_transfer_totals').select('total').where(matches(key));
        if (this.dialect === 'postgres') query = query.forUpdate();
        current.set(index, BigInt((await query.executeTakeFirstOrThrow()).total));
      }
      const totals = increases.map((increase, index) => current.get(index)! + increase.amount);
      const refused = increases.findIndex((increase, index) => totals[index]! > increase.limit);
      if (refused !== -1) return { reserved: false, refused, total: current.get(refused)! };
      for (const [index, { key }] of increases.entries()) {
        await transaction
          .updateTable('evm_transfer_totals')
          .set({ total: totals[index]!.toString(), updated_at: now })
          .where(matches(key))
          .execute();
      }
      return { reserved: true, totals };
    });
  }

  /** Takes back the amounts of a reservation whose transfer was never sent. */
  async release(decreases: readonly Omit<TotalIncrease, 'limit'>[], now: string): Promise<void> {
    await inTransaction(this.db, async (transaction) => {
      for (const index of lockOrder(decreases)) {
        const { key, amount } = decreases[index]!;
        let query = transaction.selectFrom('evm_transfer_totals').select('total').where(matches(key));
        if (this.dialect === 'postgres') query = query.forUpdate();
        const found = await query.executeTakeFirst();
        if (found === undefined) continue;
        const total = BigInt(found.total) - amount;
        await transaction
          .updateTable('evm_transfer_totals')
          .set({ total: (total < 0n ? 0n : total).toString(), updated_at: now })
          .where(matches(key))
          .execute();
      }
    });
  }

  /** The day's total so far (0 when nothing was sent). */
  async total(key: TransferTotalKey): Promise<bigint> {
    const found = await this.db
      .selectFrom('evm_transfer_totals')
      .select('total')
      .where(matches(key))
      .executeTakeFirst();
    return found === undefined ? 0n : BigInt(found.total);
  }

  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('evm_transfer_totals').where('agent_id', '=', agentId).execute();
  }
}

/** The indexes of the changes, in the order of their rows' keys; one reservation names each row once. */
function lockOrder(changes: readonly { key: TransferTotalKey }[]): number[] {
  const sortKeys = changes.map(({ key }) => `${key.agentId} ${key.chainId} ${key.asset} ${key.day}`);
  if (new Set(sortKeys).size !== sortKeys.length) throw new Error('a reservation names the same daily total twice');
  return sortKeys.map((_, index) => index).sort((a, b) => (sortKeys[a]! < sortKeys[b]! ? -1 : 1));
}

function row(key: TransferTotalKey) {
  return { agent_id: key.agentId, chain_id: String(key.chainId), asset: key.asset, day: key.day };
}

function matches(key: TransferTotalKey) {
  return (builder: ExpressionBuilder<Database, 'evm_transfer_totals'>) => builder.and(row(key));
}

import type { ExpressionBuilder } from 'kysely';
import { inTransaction, type Database, type Dialect, type Executor } from '../schema.js';

/** One day's transfers of one agent on one chain in one asset (`native` or a token's lower-case address). */
export interface TransferTotalKey {
  agentId: string;
  chainId: number;
  asset: string;
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
}

export type Reservation = { reserved: true; total: bigint } | { reserved: false; total: bigint };

/**
 * The per-day totals the `evm` plugin's daily limits are checked against
 * (migration 0014). A reservation reads and raises a total in one
 * transaction: on PostgreSQL the row is locked (`for update`) once it
 * exists, and SQLite runs one write transaction at a time, so two transfers
 * at once, on one instance or several, cannot both pass the limit.
 */
export class TransferTotalRepository {
  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
  ) {}

  /** Adds `amount` to the day's total unless the total would pass `limit`; the total after (or as it stays). */
  async reserve(key: TransferTotalKey, amount: bigint, limit: bigint, now: string): Promise<Reservation> {
    return inTransaction(this.db, async (transaction) => {
      await transaction
        .insertInto('evm_transfer_totals')
        .values({ ...row(key), total: '0', updated_at: now })
        .onConflict((conflict) => conflict.columns(['agent_id', 'chain_id', 'asset', 'day']).doNothing())
        .execute();
      let query = transaction.selectFrom('evm_transfer_totals').select('total').where(matches(key));
      if (this.dialect === 'postgres') query = query.forUpdate();
      const current = BigInt((await query.executeTakeFirstOrThrow()).total);
      const total = current + amount;
      if (total > limit) return { reserved: false, total: current };
      await transaction
        .updateTable('evm_transfer_totals')
        .set({ total: total.toString(), updated_at: now })
        .where(matches(key))
        .execute();
      return { reserved: true, total };
    });
  }

  /** Takes back a reservation whose transfer was never sent. */
  async release(key: TransferTotalKey, amount: bigint, now: string): Promise<void> {
    await inTransaction(this.db, async (transaction) => {
      let query = transaction.selectFrom('evm_transfer_totals').select('total').where(matches(key));
      if (this.dialect === 'postgres') query = query.forUpdate();
      const found = await query.executeTakeFirst();
      if (found === undefined) return;
      const total = BigInt(found.total) - amount;
      await transaction
        .updateTable('evm_transfer_totals')
        .set({ total: (total < 0n ? 0n : total).toString(), updated_at: now })
        .where(matches(key))
        .execute();
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

function row(key: TransferTotalKey) {
  return { agent_id: key.agentId, chain_id: String(key.chainId), asset: key.asset, day: key.day };
}

function matches(key: TransferTotalKey) {
  return (builder: ExpressionBuilder<Database, 'evm_transfer_totals'>) => builder.and(row(key));
}

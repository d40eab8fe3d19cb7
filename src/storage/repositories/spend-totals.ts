import type { ExpressionBuilder } from 'kysely';
import { inTransaction, type Database, type Dialect, type Executor } from '../schema.js';

/** One total: of an agent (`subject` its id) or of an account (`subject` `account`), in one UTC period. */
export interface SpendTotalKey {
  accountId: string;
  subject: string;
  /** `day:YYYY-MM-DD` or `month:YYYY-MM`. */
  period: string;
}

/** Tokens and micro-dollars (millionths of a US dollar, so that sums stay exact). */
export interface SpendAmount {
  tokens: number;
  microUsd: number;
}

/** The most a total may reach in each unit; null where that unit has no limit. */
export interface SpendCeiling {
  tokens: number | null;
  microUsd: number | null;
}

export interface SpendTotal {
  spent: SpendAmount;
  reserved: SpendAmount;
}

export type SpendReservationResult =
  | { reserved: true }
  /** `refused`: the first key (in the order given) whose total had reached its ceiling; `total` as it stays. */
  | { reserved: false; refused: number; unit: 'tokens' | 'usd'; total: SpendTotal };

const zero = { tokens: 0, microUsd: 0 };

/**
 * The spend totals spend limits are checked against (migration 0025). A
 * reservation reads and raises its totals in one transaction, all or none:
 * on PostgreSQL each row is locked (`for update`) once it exists, and SQLite
 * runs one write transaction at a time, so messages on several instances at
 * once cannot all pass a limit on a total none of them has raised yet.
 */
export class SpendTotalRepository {
  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Adds `amount` to the reserved part of every total unless one of them has
   * already reached its ceiling (spent + reserved ≥ ceiling): a message is
   * admitted while there is room left, so no more than one message's worth
   * passes a limit.
   */
  async reserve(
    entries: readonly { key: SpendTotalKey; ceiling: SpendCeiling }[],
    amount: SpendAmount,
    now: string,
  ): Promise<SpendReservationResult> {
    return inTransaction(this.db, async (transaction) => {
      const current = new Map<number, SpendTotal>();
      for (const index of lockOrder(entries)) {
        current.set(index, await this.#locked(transaction, entries[index]!.key, now));
      }
      for (const [index, { ceiling }] of entries.entries()) {
        const total = current.get(index)!;
        if (ceiling.tokens !== null && total.spent.tokens + total.reserved.tokens >= ceiling.tokens) {
          return { reserved: false, refused: index, unit: 'tokens', total };
        }
        if (ceiling.microUsd !== null && total.spent.microUsd + total.reserved.microUsd >= ceiling.microUsd) {
          return { reserved: false, refused: index, unit: 'usd', total };
        }
      }
      for (const [index, { key }] of entries.entries()) {
        const { spent, reserved } = current.get(index)!;
        await this.#write(transaction, key, spent, add(reserved, amount), now);
      }
      return { reserved: true };
    });
  }

  /**
   * Moves `reserved` out of the reserved part of every total and adds `spent`
   * (a reply's real usage; zero when it never began): the totals a settled
   * message leaves are what it used.
   */
  async settle(keys: readonly SpendTotalKey[], reserved: SpendAmount, spent: SpendAmount, now: string): Promise<void> {
    await inTransaction(this.db, async (transaction) => {
      for (const index of lockOrder(keys.map((key) => ({ key })))) {
        const key = keys[index]!;
        const total = await this.#locked(transaction, key, now);
        const left = add(total.reserved, { tokens: -reserved.tokens, microUsd: -reserved.microUsd });
        await this.#write(
          transaction,
          key,
          add(total.spent, spent),
          { tokens: Math.max(left.tokens, 0), microUsd: Math.max(left.microUsd, 0) },
          now,
        );
      }
    });
  }

  /** Marks the period's limit as reported; true for the one call that marked it (the event goes out once). */
  async markExceeded(key: SpendTotalKey, now: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('spend_totals')
      .set({ exceeded_at: now })
      .where(matches(key))
      .where('exceeded_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The total so far (zero when nothing was counted). */
  async total(key: SpendTotalKey): Promise<SpendTotal> {
    const found = await this.db.selectFrom('spend_totals').selectAll().where(matches(key)).executeTakeFirst();
    return found === undefined ? { spent: zero, reserved: zero } : totalOf(found);
  }

  async deleteForAgent(accountId: string, agentId: string, executor: Executor = this.db): Promise<void> {
    await executor
      .deleteFrom('spend_totals')
      .where('account_id', '=', accountId)
      .where('subject', '=', agentId)
      .execute();
  }

  async #locked(transaction: Executor, key: SpendTotalKey, now: string): Promise<SpendTotal> {
    await transaction
      .insertInto('spend_totals')
      .values({
        account_id: key.accountId,
        subject: key.subject,
        period: key.period,
        spent_tokens: '0',
        spent_micro_usd: '0',
        reserved_tokens: '0',
        reserved_micro_usd: '0',
        exceeded_at: null,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.columns(['account_id', 'subject', 'period']).doNothing())
      .execute();
    let query = transaction.selectFrom('spend_totals').selectAll().where(matches(key));
    if (this.dialect === 'postgres') query = query.forUpdate();
    return totalOf(await query.executeTakeFirstOrThrow());
  }

  async #write(transaction: Executor, key: SpendTotalKey, spent: SpendAmount, reserved: SpendAmount, now: string) {
    await transaction
      .updateTable('spend_totals')
      .set({
        spent_tokens: String(spent.tokens),
        spent_micro_usd: String(spent.microUsd),
        reserved_tokens: String(reserved.tokens),
        reserved_micro_usd: String(reserved.microUsd),
        updated_at: now,
      })
      .where(matches(key))
      .execute();
  }
}

function add(a: SpendAmount, b: SpendAmount): SpendAmount {
  return { tokens: a.tokens + b.tokens, microUsd: a.microUsd + b.microUsd };
}

function totalOf(row: {
  spent_tokens: string;
  spent_micro_usd: string;
  reserved_tokens: string;
  reserved_micro_usd: string;
}): SpendTotal {
  return {
    spent: { tokens: Number(row.spent_tokens), microUsd: Number(row.spent_micro_usd) },
    reserved: { tokens: Number(row.reserved_tokens), microUsd: Number(row.reserved_micro_usd) },
  };
}

/** Rows are locked in one order whatever order the caller gave them in, so two reservations cannot deadlock. */
function lockOrder(entries: readonly { key: SpendTotalKey }[]): number[] {
  const sortKeys = entries.map(({ key }) => `${key.accountId} ${key.subject} ${key.period}`);
  return sortKeys.map((_, index) => index).sort((a, b) => (sortKeys[a]! < sortKeys[b]! ? -1 : 1));
}

function matches(key: SpendTotalKey) {
  return (builder: ExpressionBuilder<Database, 'spend_totals'>) =>
    builder.and({ account_id: key.accountId, subject: key.subject, period: key.period });
}

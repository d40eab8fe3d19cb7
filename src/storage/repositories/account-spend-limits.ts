import type { Executor } from '../schema.js';

/** An account's spend limits as stored (JSON); the shape is `SpendLimits` in src/schemas/spend-limits.ts. */
export class AccountSpendLimitRepository {
  constructor(private readonly db: Executor) {}

  async find(accountId: string): Promise<unknown | null> {
    const found = await this.db
      .selectFrom('account_spend_limits')
      .select('limits')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return found === undefined ? null : (JSON.parse(found.limits) as unknown);
  }

  async put(accountId: string, limits: unknown, now: string): Promise<void> {
    await this.db
      .insertInto('account_spend_limits')
      .values({ account_id: accountId, limits: JSON.stringify(limits), updated_at: now })
      .onConflict((conflict) =>
        conflict.column('account_id').doUpdateSet({ limits: JSON.stringify(limits), updated_at: now }),
      )
      .execute();
  }
}

import type { Executor } from '../schema.js';

/**
 * How long the limits read for admitting a message are used again: every
 * message needs its account's limits, which change seldom, so this instance
 * reads them at most once per this time per account. A change made on
 * another instance applies here within it; one made here, at once.
 */
export const accountLimitsReuseMs = 2_000;
/** Accounts whose limits are held at once; past this many, all are forgotten (and read again when needed). */
const mostHeld = 10_000;

/** An account's spend limits as stored (JSON); the shape is `SpendLimits` in src/schemas/spend-limits.ts. */
export class AccountSpendLimitRepository {
  readonly #recent = new Map<string, { limits: unknown | null; readAt: number }>();

  constructor(private readonly db: Executor) {}

  /** The limits as read at most `accountLimitsReuseMs` before `now` (the admission of a message). */
  async findRecent(accountId: string, now: number): Promise<unknown | null> {
    const held = this.#recent.get(accountId);
    if (held !== undefined && now - held.readAt < accountLimitsReuseMs && now >= held.readAt) return held.limits;
    const limits = await this.find(accountId);
    if (this.#recent.size >= mostHeld) this.#recent.clear();
    this.#recent.set(accountId, { limits, readAt: now });
    return limits;
  }

  async find(accountId: string): Promise<unknown | null> {
    const found = await this.db
      .selectFrom('account_spend_limits')
      .select('limits')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return found === undefined ? null : (JSON.parse(found.limits) as unknown);
  }

  async put(accountId: string, limits: unknown, now: string): Promise<void> {
    this.#recent.delete(accountId);
    await this.db
      .insertInto('account_spend_limits')
      .values({ account_id: accountId, limits: JSON.stringify(limits), updated_at: now })
      .onConflict((conflict) =>
        conflict.column('account_id').doUpdateSet({ limits: JSON.stringify(limits), updated_at: now }),
      )
      .execute();
  }
}

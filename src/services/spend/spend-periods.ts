import type { SpendLimitsValue } from '../../schemas/spend-limits.js';
import type { SpendCeiling, SpendTotalKey } from '../../storage/repositories/spend-totals.js';

export type SpendScope = 'agent' | 'account';
export type SpendPeriod = 'day' | 'month';

/** One limit period of one scope that applies to a message: the total it is checked against and its ceilings. */
export interface SpendEntry {
  scope: SpendScope;
  period: SpendPeriod;
  key: SpendTotalKey;
  ceiling: SpendCeiling;
  /** When the period's total starts again from zero (UTC). */
  resetsAt: Date;
}

const microUsdPerDollar = 1_000_000;

export function toMicroUsd(dollars: number): number {
  return Math.round(dollars * microUsdPerDollar);
}

export function toDollars(microUsd: number): number {
  return microUsd / microUsdPerDollar;
}

/** The UTC day or month `now` falls in, as the total's period, and when the next one begins. */
export function periodAt(period: SpendPeriod, now: Date): { name: string; resetsAt: Date } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  if (period === 'day') {
    return {
      name: `day:${now.toISOString().slice(0, 10)}`,
      resetsAt: new Date(Date.UTC(year, month, now.getUTCDate() + 1)),
    };
  }
  return { name: `month:${now.toISOString().slice(0, 7)}`, resetsAt: new Date(Date.UTC(year, month + 1, 1)) };
}

/**
 * The totals a message of `subject` (an agent's id, or `account`) is checked
 * against under `limits`: one per period with a limit set; none without limits,
 * so an agent and account without spend limits cost no write per message.
 */
export function spendEntries(
  scope: SpendScope,
  accountId: string,
  subject: string,
  limits: SpendLimitsValue,
  now: Date,
): SpendEntry[] {
  const entries: SpendEntry[] = [];
  const perPeriod: Array<[SpendPeriod, number | null, number | null]> = [
    ['day', limits.tokensPerDay, limits.costPerDay],
    ['month', limits.tokensPerMonth, limits.costPerMonth],
  ];
  for (const [period, tokens, dollars] of perPeriod) {
    if (tokens === null && dollars === null) continue;
    const { name, resetsAt } = periodAt(period, now);
    entries.push({
      scope,
      period,
      key: { accountId, subject, period: name },
      ceiling: { tokens, microUsd: dollars === null ? null : toMicroUsd(dollars) },
      resetsAt,
    });
  }
  return entries;
}

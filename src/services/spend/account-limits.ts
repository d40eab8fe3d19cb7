import { isoTime } from '../../clock.js';
import {
  spendLimitsView,
  storedSpendLimits,
  type AccountLimitsBodyValue,
  type SpendLimitsValue,
} from '../../schemas/spend-limits.js';
import { requireScope, type ServiceContext } from '../context.js';

/** The account's own spend limits, over all its agents (null where none is set). */
export async function getAccountLimits({ ctx }: { ctx: ServiceContext }): Promise<{ spend: SpendLimitsValue }> {
  requireScope(ctx, 'keys:manage');
  const stored = (await ctx.deps.repositories.accountSpendLimits.find(ctx.actor.accountId)) as {
    spend?: Partial<SpendLimitsValue>;
  } | null;
  return { spend: spendLimitsView(stored?.spend as never) };
}

/**
 * Replaces the account's spend limits (a limit left out is removed). The
 * scope is `keys:manage`: whoever may issue the account's keys decides what
 * all of them together may spend; an agent's own limits are its owner's.
 */
export async function putAccountLimits({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: AccountLimitsBodyValue;
}): Promise<{ spend: SpendLimitsValue }> {
  requireScope(ctx, 'keys:manage');
  const spend = storedSpendLimits(input.spend);
  await ctx.deps.repositories.accountSpendLimits.put(ctx.actor.accountId, { spend }, isoTime(ctx.deps.clock.now()));
  return { spend: spendLimitsView(spend) };
}

import { isoTime } from '../../clock.js';
import { AppError } from '../../errors.js';
import { recordAgentEvent } from '../../events/agent-events.js';
import type { TokenUsage } from '../../providers/model-adapter.js';
import { costOf, type ModelPrice } from '../../providers/prices.js';
import { spendLimitsView, type SpendLimitsValue } from '../../schemas/spend-limits.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import type { SpendAmount, SpendTotal } from '../../storage/repositories/spend-totals.js';
import type { ServiceContext } from '../context.js';
import { eventWriterOf } from '../events/event-writer.js';
import { spendEntries, toDollars, type SpendEntry } from './spend-periods.js';

/** How an agent's status reason starts while a spend limit refuses its messages (its status stays as it is). */
export const spendReasonPrefix = 'Spend limit reached';

/**
 * 429 `budget_exceeded`: a spend limit that applies to the message is
 * reached. 429 rather than 402, as the other limits: the client may retry,
 * once the period resets (`Retry-After`, `resetsAt`) or the owner raises it.
 */
export class BudgetExceededError extends AppError {
  /**
   * `inFlight`: what is spent is still under the limit, and only what replies
   * in flight reserved reaches it; they may well use less, so the client may
   * retry in a moment rather than at the period's reset.
   */
  constructor(
    entry: SpendEntry,
    unit: 'tokens' | 'usd',
    total: SpendTotal,
    agentId: string,
    now: Date,
    inFlight = false,
  ) {
    const retryAfter = inFlight
      ? inFlightRetrySeconds
      : Math.max(1, Math.ceil((entry.resetsAt.getTime() - now.getTime()) / 1000));
    const detail = inFlight
      ? `What is left of ${limitNameOf(entry, unit)} is reserved by replies in flight; retry once they end.`
      : `${reasonOf(entry, unit)} Retry after it resets, or raise the limit.`;
    super('budget_exceeded', detail, {
      headers: { 'retry-after': String(retryAfter) },
      extensions: { agentId, ...limitFacts(entry, unit, total) },
    });
  }
}

/** The facts of a reached limit, as problem extension members and as the webhook event's data. */
function limitFacts(entry: SpendEntry, unit: 'tokens' | 'usd', total: SpendTotal) {
  const inUnit = (amount: SpendAmount) => (unit === 'tokens' ? amount.tokens : toDollars(amount.microUsd));
  return {
    scope: entry.scope,
    unit,
    period: entry.period,
    limit: unit === 'tokens' ? entry.ceiling.tokens! : toDollars(entry.ceiling.microUsd!),
    spent: inUnit(total.spent),
    reserved: inUnit(total.reserved),
    resetsAt: isoTime(entry.resetsAt.getTime()),
  };
}

/** How long a client waits when replies in flight hold what is left of a limit: about one reply's time. */
const inFlightRetrySeconds = 2;

function limitNameOf(entry: SpendEntry, unit: 'tokens' | 'usd'): string {
  const whose = entry.scope === 'agent' ? "the agent's" : "its account's";
  const amount =
    unit === 'tokens' ? `${entry.ceiling.tokens} tokens` : `$${toDollars(entry.ceiling.microUsd!).toString()}`;
  return `${whose} limit of ${amount} per UTC ${entry.period}`;
}

/** The same for every refusal of one period, so the status reason is written once per period. */
function reasonOf(entry: SpendEntry, unit: 'tokens' | 'usd'): string {
  return `${spendReasonPrefix}: ${limitNameOf(entry, unit)}; messages and tasks are refused until ${isoTime(entry.resetsAt.getTime())}.`;
}

/**
 * What one admitted message reserved of its totals. The reply's real usage is
 * handed over as it ends (`use`), and `settle` (once, when its slots are
 * released) replaces the estimate with it; a reply that never began settles
 * with nothing used, which releases the reservation.
 */
export class SpendReservation {
  #reserved: SpendAmount;
  #usage: TokenUsage | null = null;
  #settled = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly entries: readonly SpendEntry[],
    reserved: SpendAmount,
    private readonly price: ModelPrice | null,
  ) {
    this.#reserved = reserved;
  }

  /** The usage the reply ended with (the one its metrics count). */
  use(usage: TokenUsage): void {
    this.#usage ??= usage;
  }

  /**
   * Raises the reservation to the built prompt's estimate, without a check:
   * the message is already admitted, and the estimate keeps later admissions
   * honest about what it may still use.
   */
  async raiseTo(estimate: { inputTokens: number; outputTokens: number }): Promise<void> {
    const amount = amountOf(this.price, estimate);
    const delta = {
      tokens: amount.tokens - this.#reserved.tokens,
      microUsd: amount.microUsd - this.#reserved.microUsd,
    };
    if (delta.tokens <= 0 && delta.microUsd <= 0) return;
    const raise = { tokens: Math.max(delta.tokens, 0), microUsd: Math.max(delta.microUsd, 0) };
    // Settling a negative reservation with nothing spent adds it to what is reserved.
    await this.ctx.deps.repositories.spendTotals.settle(
      this.entries.map((entry) => entry.key),
      { tokens: -raise.tokens, microUsd: -raise.microUsd },
      { tokens: 0, microUsd: 0 },
      isoTime(this.ctx.deps.clock.now()),
    );
    this.#reserved = {
      tokens: this.#reserved.tokens + raise.tokens,
      microUsd: this.#reserved.microUsd + raise.microUsd,
    };
  }

  /** Never throws: a reply that was answered is not failed by its bookkeeping. */
  async settle(): Promise<void> {
    if (this.#settled) return;
    this.#settled = true;
    const used = this.#usage === null ? { tokens: 0, microUsd: 0 } : amountOf(this.price, this.#usage);
    try {
      await this.ctx.deps.repositories.spendTotals.settle(
        this.entries.map((entry) => entry.key),
        this.#reserved,
        used,
        isoTime(this.ctx.deps.clock.now()),
      );
    } catch (error) {
      this.ctx.deps.logger.error(
        { err: error, requestId: this.ctx.requestId, tokens: used.tokens },
        'could not settle the spend of a message',
      );
    }
  }
}

/** Tokens and micro-dollars of a usage; a model without a price costs nothing. */
function amountOf(
  price: ModelPrice | null,
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number },
): SpendAmount {
  const dollars = costOf(price, usage) ?? 0;
  return { tokens: usage.inputTokens + usage.outputTokens, microUsd: Math.ceil(dollars * 1_000_000) };
}

async function accountLimits(ctx: ServiceContext): Promise<SpendLimitsValue> {
  const stored = await ctx.deps.repositories.accountSpendLimits.findRecent(ctx.actor.accountId, ctx.deps.clock.now());
  return spendLimitsView((stored as { spend?: Partial<SpendLimitsValue> } | null)?.spend as never);
}

/**
 * The admission of a message against its agent's and its account's spend
 * limits, checked and reserved in one step on the shared totals so that
 * instances at once cannot all pass on a stale total: refused with 429
 * `budget_exceeded` once a total has reached its limit, otherwise `estimate`
 * is reserved until the reply ends. Null when no limit applies (nothing is
 * counted then). The check is here only: a reply that began always finishes.
 */
export async function admitSpend(
  ctx: ServiceContext,
  agent: AgentRecord,
  estimate: { inputTokens: number; outputTokens: number },
): Promise<SpendReservation | null> {
  const { clock, repositories, prices } = ctx.deps;
  const now = new Date(clock.now());
  const entries = [
    ...spendEntries('agent', agent.accountId, agent.id, spendLimitsView(agent.profile.limits?.spend), now),
    ...spendEntries('account', agent.accountId, 'account', await accountLimits(ctx), now),
  ];
  if (entries.length === 0) {
    await clearSpendReason(ctx, agent);
    return null;
  }
  const price = prices.priceOf(agent.profile.model.provider, agent.profile.model.name);
  const amount = amountOf(price, estimate);
  const result = await repositories.spendTotals.reserve(entries, amount, isoTime(now.getTime()));
  if (result.reserved) {
    await clearSpendReason(ctx, agent);
    return new SpendReservation(ctx, entries, amount, price);
  }
  const entry = entries[result.refused]!;
  const spent = result.unit === 'tokens' ? result.total.spent.tokens : result.total.spent.microUsd;
  const ceiling = result.unit === 'tokens' ? entry.ceiling.tokens! : entry.ceiling.microUsd!;
  // Reached by reservations alone: not reported as reached (no status reason, no event) until it is spent.
  if (spent < ceiling) throw new BudgetExceededError(entry, result.unit, result.total, agent.id, now, true);
  await reportExceeded(ctx, agent, entry, result.unit, result.total);
  throw new BudgetExceededError(entry, result.unit, result.total, agent.id, now);
}

/**
 * The spend of a reply resumed after its approvals, counted against the
 * limits that apply without being refused by them: it began as an admitted
 * message, and a reply that began always finishes. Nothing is reserved; its
 * real usage is added when it settles. Null when no limit applies.
 */
export async function countResumedSpend(ctx: ServiceContext, agent: AgentRecord): Promise<SpendReservation | null> {
  const now = new Date(ctx.deps.clock.now());
  const entries = [
    ...spendEntries('agent', agent.accountId, agent.id, spendLimitsView(agent.profile.limits?.spend), now),
    ...spendEntries('account', agent.accountId, 'account', await accountLimits(ctx), now),
  ];
  if (entries.length === 0) return null;
  const price = ctx.deps.prices.priceOf(agent.profile.model.provider, agent.profile.model.name);
  return new SpendReservation(ctx, entries, { tokens: 0, microUsd: 0 }, price);
}

/**
 * A reached limit shows in the agent's status reason (its status stays: the
 * owner has nothing to fix, and it answers again when the period resets) and,
 * once per period of that total, as the `agent.budget_exceeded` event.
 */
async function reportExceeded(
  ctx: ServiceContext,
  agent: AgentRecord,
  entry: SpendEntry,
  unit: 'tokens' | 'usd',
  total: SpendTotal,
): Promise<void> {
  const { repositories, clock } = ctx.deps;
  const reason = reasonOf(entry, unit);
  const now = isoTime(clock.now());
  try {
    await repositories.db.transaction().execute(async (transaction) => {
      if (await repositories.spendTotals.markExceeded(entry.key, now, transaction)) {
        const data = limitFacts(entry, unit, total);
        await recordAgentEvent(eventWriterOf(ctx, 'service'), agent, 'agent.budget_exceeded', data, transaction);
      }
      if (agent.statusReason !== reason) {
        await repositories.agents.setStatus(agent, agent.status, reason, now, transaction);
      }
    });
    ctx.deps.webhooks.outbox.committed();
  } catch (error) {
    // The refusal stands either way; only its report was not written.
    ctx.deps.logger.error({ err: error, agentId: agent.id }, 'could not report a reached spend limit');
  }
}

/** Once messages are admitted again (a new period, a raised limit), the reason goes. */
async function clearSpendReason(ctx: ServiceContext, agent: AgentRecord): Promise<void> {
  if (!agent.statusReason?.startsWith(spendReasonPrefix)) return;
  await ctx.deps.repositories.agents.setStatus(agent, agent.status, null, isoTime(ctx.deps.clock.now()));
}

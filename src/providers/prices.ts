/**
 * What a model call costs: a price per million tokens for each model, and the cost of a call's usage.
 *
 * The defaults are the providers' published list prices for standard (not batch, not priority) use,
 * in US dollars per million tokens, as of 2025-11. Providers change prices; an operator corrects them
 * (or prices a model agentd does not know) with AGENTD_MODEL_PRICES, which is merged over these.
 * Costs are computed when a call finishes and stored with it, so a later change of price does not
 * rewrite what past calls cost.
 */

export interface ModelPrice {
  inputPerMillion: number;
  /** Input tokens read from the provider's prompt cache; billed at `inputPerMillion` when not given. */
  cachedInputPerMillion?: number;
  outputPerMillion: number;
}

export interface PriceTable {
  priceOf(provider: string, model: string): ModelPrice | null;
}

/** The date the default prices below were taken from the providers' price pages. */
export const defaultPricesDate = '2025-11';

/**
 * Defaults per provider and model. Anthropic's cache writes (1.25 times the input price) are not
 * modelled: agentd's usage counts them as ordinary input tokens, so their cost is slightly under-stated.
 */
export const defaultPrices: Readonly<Record<string, Readonly<Record<string, ModelPrice>>>> = {
  openai: {
    'gpt-5': { inputPerMillion: 1.25, cachedInputPerMillion: 0.125, outputPerMillion: 10 },
    'gpt-5-mini': { inputPerMillion: 0.25, cachedInputPerMillion: 0.025, outputPerMillion: 2 },
    'gpt-5-nano': { inputPerMillion: 0.05, cachedInputPerMillion: 0.005, outputPerMillion: 0.4 },
    'gpt-4.1': { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8 },
    'gpt-4.1-mini': { inputPerMillion: 0.4, cachedInputPerMillion: 0.1, outputPerMillion: 1.6 },
    'gpt-4.1-nano': { inputPerMillion: 0.1, cachedInputPerMillion: 0.025, outputPerMillion: 0.4 },
    'gpt-4o': { inputPerMillion: 2.5, cachedInputPerMillion: 1.25, outputPerMillion: 10 },
    'gpt-4o-mini': { inputPerMillion: 0.15, cachedInputPerMillion: 0.075, outputPerMillion: 0.6 },
    o3: { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8 },
    'o3-mini': { inputPerMillion: 1.1, cachedInputPerMillion: 0.55, outputPerMillion: 4.4 },
    'o4-mini': { inputPerMillion: 1.1, cachedInputPerMillion: 0.275, outputPerMillion: 4.4 },
  },
  anthropic: {
    'claude-opus-4-5': { inputPerMillion: 5, cachedInputPerMillion: 0.5, outputPerMillion: 25 },
    'claude-opus-4-1': { inputPerMillion: 15, cachedInputPerMillion: 1.5, outputPerMillion: 75 },
    'claude-opus-4': { inputPerMillion: 15, cachedInputPerMillion: 1.5, outputPerMillion: 75 },
    'claude-sonnet-4-5': { inputPerMillion: 3, cachedInputPerMillion: 0.3, outputPerMillion: 15 },
    'claude-sonnet-4': { inputPerMillion: 3, cachedInputPerMillion: 0.3, outputPerMillion: 15 },
    'claude-3-7-sonnet': { inputPerMillion: 3, cachedInputPerMillion: 0.3, outputPerMillion: 15 },
    'claude-haiku-4-5': { inputPerMillion: 1, cachedInputPerMillion: 0.1, outputPerMillion: 5 },
    'claude-3-5-haiku': { inputPerMillion: 0.8, cachedInputPerMillion: 0.08, outputPerMillion: 4 },
  },
};

/**
 * Providers whose every model is free to the operator: the offline builtin model, and Ollama, which runs
 * on the operator's own hardware. openai-compatible servers have no default: their models are unknown
 * (and say so) until priced with AGENTD_MODEL_PRICES.
 */
const freeProviders: ReadonlySet<string> = new Set(['builtin', 'ollama']);
const free: ModelPrice = Object.freeze({ inputPerMillion: 0, cachedInputPerMillion: 0, outputPerMillion: 0 });

/**
 * Model names as the providers spell their snapshots and aliases: `gpt-4o-2024-08-06`,
 * `claude-sonnet-4-5-20250929`, `claude-3-5-haiku-latest`. Only this suffix is dropped (never a
 * longer prefix match), so `gpt-4o-mini` is never priced as `gpt-4o`.
 */
const snapshotSuffix = /-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

export function createPriceTable(overrides: Record<string, Record<string, ModelPrice>> = {}): PriceTable {
  const table = new Map<string, Map<string, ModelPrice>>();
  for (const source of [defaultPrices, overrides]) {
    for (const [provider, models] of Object.entries(source)) {
      const prices = table.get(provider) ?? new Map<string, ModelPrice>();
      for (const [model, price] of Object.entries(models)) prices.set(model, price);
      table.set(provider, prices);
    }
  }
  return {
    priceOf(provider, model) {
      const prices = table.get(provider);
      const price = prices?.get(model) ?? prices?.get(model.replace(snapshotSuffix, ''));
      if (price !== undefined) return price;
      return freeProviders.has(provider) ? free : null;
    },
  };
}

/** US dollars; null when the model has no price (unknown models cost nothing and say so). */
export function costOf(
  price: ModelPrice | null,
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number },
): number | null {
  if (price === null) return null;
  // Cached tokens are part of the input tokens the provider reports; they are billed at the cached rate.
  const cached = Math.min(Math.max(usage.cachedInputTokens ?? 0, 0), usage.inputTokens);
  const uncached = usage.inputTokens - cached;
  return (
    (uncached * price.inputPerMillion +
      cached * (price.cachedInputPerMillion ?? price.inputPerMillion) +
      usage.outputTokens * price.outputPerMillion) /
    1_000_000
  );
}

import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * Spend limits (docs/spend-limits.md): per agent (its `limits.spend`) and per
 * account (`/v1/account/limits`), in tokens or US dollars, per UTC day and
 * month. A message or task is admitted while the total is under every limit
 * that applies; a reply that began always finishes and is counted.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const Tokens = (period: string) =>
  Type.Integer({
    minimum: 1,
    maximum: 1_000_000_000_000,
    description: `The most input + output tokens per UTC ${period}; unset or null: no limit.`,
  });
const Dollars = (period: string) =>
  Type.Number({
    // Totals are kept in whole micro-dollars: a smaller limit would round to none at all.
    minimum: 0.000001,
    maximum: 1_000_000_000,
    description:
      `The most US dollars per UTC ${period}, priced with the server's price table (models it has no price for ` +
      'count as free); unset or null: no limit.',
  });

const fields = {
  tokensPerDay: Tokens('day'),
  tokensPerMonth: Tokens('month'),
  costPerDay: Dollars('day'),
  costPerMonth: Dollars('month'),
} as const;

/** On create and PUT: each limit given, or absent (no limit). */
export const SpendLimitsInput = Type.Object(
  {
    tokensPerDay: Type.Optional(Nullable(fields.tokensPerDay)),
    tokensPerMonth: Type.Optional(Nullable(fields.tokensPerMonth)),
    costPerDay: Type.Optional(Nullable(fields.costPerDay)),
    costPerMonth: Type.Optional(Nullable(fields.costPerMonth)),
  },
  { additionalProperties: false },
);
export type SpendLimitsInputValue = Static<typeof SpendLimitsInput>;

/** As read: every limit, null where none is set. */
export const SpendLimitsView = Type.Object({
  tokensPerDay: Type.Unsafe<number | null>({ type: ['integer', 'null'] }),
  tokensPerMonth: Type.Unsafe<number | null>({ type: ['integer', 'null'] }),
  costPerDay: Type.Unsafe<number | null>({ type: ['number', 'null'] }),
  costPerMonth: Type.Unsafe<number | null>({ type: ['number', 'null'] }),
});
export type SpendLimitsValue = Static<typeof SpendLimitsView>;

/** The agent's `limits` field. */
export const AgentLimitsInput = Type.Object(
  {
    spend: Type.Optional(
      Nullable(
        Type.Object(SpendLimitsInput.properties, {
          additionalProperties: false,
          description:
            "The agent's own spend limits; its account's limits apply too. In a PATCH each limit merges (null removes it).",
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type AgentLimitsInputValue = Static<typeof AgentLimitsInput>;

export const AgentLimitsView = Type.Object({ spend: SpendLimitsView });

/** `/v1/account/limits`: the account's own limits, over all its agents. */
export const AccountLimitsBody = Type.Object({ spend: SpendLimitsInput }, { additionalProperties: false });
export type AccountLimitsBodyValue = Static<typeof AccountLimitsBody>;
export const AccountLimitsView = Type.Object({ spend: SpendLimitsView }, { title: 'AccountLimits' });

export const noSpendLimits: SpendLimitsValue = {
  tokensPerDay: null,
  tokensPerMonth: null,
  costPerDay: null,
  costPerMonth: null,
};

/** The limits set (null and absent dropped): what is stored. */
export function storedSpendLimits(input: SpendLimitsInputValue): Partial<Record<keyof SpendLimitsValue, number>> {
  const stored: Partial<Record<keyof SpendLimitsValue, number>> = {};
  for (const name of Object.keys(noSpendLimits) as (keyof SpendLimitsValue)[]) {
    const value = input[name];
    if (typeof value === 'number') stored[name] = value;
  }
  return stored;
}

/** A stored set of limits as read, null where none is set. */
export function spendLimitsView(stored: Partial<Record<keyof SpendLimitsValue, number>> | undefined): SpendLimitsValue {
  return { ...noSpendLimits, ...stored };
}

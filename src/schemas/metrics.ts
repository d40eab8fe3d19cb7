import { runTriggers, type RunTrigger } from './runs.js';
import { Type, type Static, type TInteger, type TOptional } from '@sinclair/typebox';
import { failureTypes, latencyBoundsMs } from '../events/metric-counts.js';
import { StringEnum, Timestamp } from './common.js';

/** Per-agent metrics and account usage: the shapes of GET /v1/agents/{agentId}/metrics and GET /v1/metrics/usage. */

export const metricIntervals = ['minute', 'hour', 'day'] as const;
export type MetricInterval = (typeof metricIntervals)[number];

/** Most buckets one metrics response holds (a day and an hour of minutes, 31 days of hours…). */
export const maxMetricBuckets = 1500;

const percentileDescription =
  `Milliseconds, from a fixed-bucket histogram: the value reported is the upper bound of the bucket that ` +
  `holds the percentile (bounds ${latencyBoundsMs.join(', ')} ms), so it is never below the true value and ` +
  `at most one bucket (about ×1.6) above it; above ${latencyBoundsMs.at(-1)} ms it reads ${latencyBoundsMs.at(-1)}. ` +
  'Null when there was no sample.';

const Milliseconds = Type.Unsafe<number | null>({ type: ['integer', 'null'] });

const MetricFields = {
  messages: Type.Integer({
    description: 'Messages accepted (past the rate and concurrency limits), streamed or not, whatever their outcome.',
  }),
  streamedMessages: Type.Integer({ description: 'Of `messages`, those with `stream: true`.' }),
  failedMessages: Type.Integer({ description: 'Of `messages`, those that ended with an error.' }),
  failuresByType: Type.Object(
    Object.fromEntries(failureTypes.map((type) => [type, Type.Optional(Type.Integer())])) as Record<
      (typeof failureTypes)[number],
      TOptional<TInteger>
    >,
    {
      description:
        '`failedMessages` by cause, types with a count only: `provider_error` (unreachable, 5xx, broke off), ' +
        '`provider_rejected` (another 4xx), `timeout`, `circuit_open`, `credentials`, `model_not_found`, `internal`. ' +
        'More types may be added.',
    },
  ),
  runsByTrigger: Type.Object(
    Object.fromEntries(runTriggers.map((trigger) => [trigger, Type.Integer()])) as Record<RunTrigger, TInteger>,
    {
      description:
        '`messages` by who started the run each reply is: `message` (POST …/messages, background or not), `task`, ' +
        '`platform`, `door` (the OpenAI-compatible endpoint).',
    },
  ),
  toolCalls: Type.Integer({ description: 'Tool calls the replies made.' }),
  inputTokens: Type.Integer({ description: 'Input tokens the provider reported (summed over tool rounds).' }),
  outputTokens: Type.Integer({ description: 'Output tokens the provider reported.' }),
  cachedInputTokens: Type.Integer({
    description:
      'Of `inputTokens`, those the provider read from its prompt cache (billed lower; README, "Prompt ' +
      'caching"). 0 where the provider reports none (builtin, most OpenAI-compatible servers).',
  }),
  latencyMs: Type.Object(
    { p50: Milliseconds, p95: Milliseconds, p99: Milliseconds },
    { description: `Request to reply complete, of completed replies. ${percentileDescription}` },
  ),
  timeToFirstTokenMs: Type.Object(
    { p50: Milliseconds, p95: Milliseconds },
    { description: `Request to the first text of streamed replies. ${percentileDescription}` },
  ),
  rateLimited: Type.Integer({ description: 'Messages refused 429 `rate_limited` (the per-agent message rate).' }),
  concurrencyRejected: Type.Integer({
    description: 'Messages refused 429 `concurrency_limited` (messages in flight per agent, open streams per account).',
  }),
  memoryUpdates: Type.Integer({
    description:
      'Long-term memory updates: a summary or facts changed (in the background after exchanges, through the ' +
      'memory API, or by forgetting a conversation); each is a `memory.updated` event.',
  }),
  imagesIn: Type.Integer({ description: 'Images sent with messages (`attachments`) that reached the agent.' }),
  imagesOut: Type.Integer({ description: 'Images replies produced (made by a tool such as generate_image).' }),
  costUsd: Type.Number({
    description:
      'What the replies cost in US dollars (to the micro-dollar), each priced when it was made from the price ' +
      'table: the dated defaults for OpenAI and Anthropic models, free for `builtin` and `ollama`, and ' +
      'AGENTD_MODEL_PRICES (README, "Model prices"). Messages whose model has no price count 0 here and are ' +
      'counted in `unpricedMessages`.',
  }),
  unpricedMessages: Type.Integer({
    description:
      'Of `messages`, those whose model has no price (e.g. an openai-compatible model not in AGENTD_MODEL_PRICES): ' +
      'their cost is not in `costUsd`. Above 0, `costUsd` is understated.',
  }),
};

export const MetricTotals = Type.Object(MetricFields, { title: 'MetricTotals' });
export type MetricTotalsView = Static<typeof MetricTotals>;

export const MetricBucket = Type.Object(
  { start: Timestamp, ...MetricFields },
  {
    title: 'MetricBucket',
    description: 'One interval from `start`; intervals without traffic are present, with zeros.',
  },
);
export type MetricBucketView = Static<typeof MetricBucket>;

const Time = Type.String({
  format: 'date-time',
  maxLength: 64,
  description: 'RFC 3339 time, e.g. 2026-11-22T14:00:00Z.',
});

export const AgentMetricsQuery = Type.Object(
  {
    from: Type.Optional({
      ...Time,
      description: 'Start of the range (default: 24 hours before `to`), rounded down to the interval.',
    }),
    to: Type.Optional({
      ...Time,
      description: 'End of the range (default: now): the buckets that start before it are given, whole.',
    }),
    interval: Type.Optional(StringEnum(metricIntervals, { description: 'Bucket size (default `hour`).' })),
  },
  { additionalProperties: false },
);
export type AgentMetricsQueryValue = Static<typeof AgentMetricsQuery>;

export const AgentMetrics = Type.Object(
  {
    agentId: Type.String(),
    from: Timestamp,
    to: Timestamp,
    interval: StringEnum(metricIntervals),
    buckets: Type.Array(MetricBucket),
    totals: MetricTotals,
  },
  { title: 'AgentMetrics' },
);
export type AgentMetricsView = Static<typeof AgentMetrics>;

export const UsageQuery = Type.Object(
  {
    from: Type.Optional({
      ...Time,
      description: 'Start of the range (default: 30 days before `to`), rounded down to the hour.',
    }),
    to: Type.Optional({
      ...Time,
      description: 'End of the range (default: now): the hours that start before it are counted, whole.',
    }),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'Agents per page, 1–1000 (default 100).' }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type UsageQueryValue = Static<typeof UsageQuery>;

export const AgentUsage = Type.Object(
  { agentId: Type.String(), ...MetricFields },
  { title: 'AgentUsage', description: "One agent's totals over the range (deleted agents included, by id)." },
);

export const Usage = Type.Object(
  {
    accountId: Type.String(),
    from: Timestamp,
    to: Timestamp,
    totals: MetricTotals,
    data: Type.Array(AgentUsage),
    pagination: Type.Object({
      limit: Type.Integer(),
      hasMore: Type.Boolean(),
      nextCursor: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
    }),
  },
  { title: 'Usage' },
);
export type UsageView = Static<typeof Usage>;

export const DailyUsageQuery = Type.Object(
  {
    from: Type.Optional({
      ...Time,
      description:
        'Start of the range (default: 30 days before `to`), rounded down to the day (UTC); at most 366 days.',
    }),
    to: Type.Optional({
      ...Time,
      description: 'End of the range (default: now): the hours that start before it are counted, whole.',
    }),
  },
  { additionalProperties: false },
);
export type DailyUsageQueryValue = Static<typeof DailyUsageQuery>;

export const DailyModelUsage = Type.Object(
  {
    date: Type.String({ description: 'The day (UTC), e.g. 2026-11-22.' }),
    model: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      description:
        'The model (`provider/name`) the agents that did this work are set to now; null for agents deleted since. ' +
        'An agent whose model changed counts its whole history under the new one.',
    }),
    agents: Type.Integer({ description: 'Agents with traffic that day under this model.' }),
    messages: MetricFields.messages,
    failedMessages: MetricFields.failedMessages,
    toolCalls: MetricFields.toolCalls,
    inputTokens: MetricFields.inputTokens,
    outputTokens: MetricFields.outputTokens,
    cachedInputTokens: MetricFields.cachedInputTokens,
    costUsd: MetricFields.costUsd,
    unpricedMessages: MetricFields.unpricedMessages,
  },
  { title: 'DailyModelUsage' },
);
export type DailyModelUsageView = Static<typeof DailyModelUsage>;

export const DailyUsage = Type.Object(
  {
    accountId: Type.String(),
    from: Timestamp,
    to: Timestamp,
    data: Type.Array(DailyModelUsage, {
      description: 'Day by day, then by model; only days and models with traffic are listed.',
    }),
  },
  { title: 'DailyUsage' },
);
export type DailyUsageView = Static<typeof DailyUsage>;

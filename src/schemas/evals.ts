import { Type, type Static } from '@sinclair/typebox';
import { finishReasons } from './messages.js';
import { IdString, NullableInResponse, NullableTimestamp, ProblemSchema, StringEnum, Timestamp } from './common.js';

/**
 * Evals (docs/evals.md): datasets of cases, each with the scorers that judge
 * its reply, and eval runs that answer every case with one or two versions of
 * an agent, in isolation, and compare them.
 */

/** Bounds of a dataset: they keep an eval run, and the answer that lists its results, of a known size. */
export const evalLimits = {
  cases: 1000,
  messagesPerCase: 10,
  messageChars: 32_000,
  scorersPerCase: 20,
  /** The longest regex pattern a `regex` scorer takes (docs/evals.md, "Regex scorers"). */
  regexChars: 200,
  /** A case's `context`, a `jsonSchema` scorer's schema and a `toolCalled` scorer's input, as JSON. */
  objectBytes: 16 * 1024,
  /** The most cases (with their versions) answered at once by one eval, whatever it asks. */
  concurrency: 10,
} as const;

export const evalStatuses = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type EvalStatus = (typeof evalStatuses)[number];
export const finishedEvalStatuses: ReadonlySet<EvalStatus> = new Set(['completed', 'failed', 'cancelled']);

const Text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });
const JsonObject = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });

const ToolName = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'A tool name as the model sees it.' });

/** Scorers: each one judges one aspect of a case's reply with a score from 0 to 1 and a reason. */
const scorerSchemas = [
  Type.Object(
    {
      type: Type.Literal('contains'),
      value: Text(2000),
      caseSensitive: Type.Optional(Type.Boolean({ description: 'Default false.' })),
    },
    { additionalProperties: false, description: "The reply's text contains `value`." },
  ),
  Type.Object(
    {
      type: Type.Literal('notContains'),
      value: Text(2000),
      caseSensitive: Type.Optional(Type.Boolean({ description: 'Default false.' })),
    },
    { additionalProperties: false, description: "The reply's text does not contain `value`." },
  ),
  Type.Object(
    {
      type: Type.Literal('regex'),
      pattern: Text(
        200,
        'A JavaScript regular expression, at most 200 characters, without backreferences or nested quantifiers.',
      ),
      flags: Type.Optional(
        Type.String({ pattern: '^[imsu]{0,4}$', description: 'Any of `i`, `m`, `s`, `u`, each at most once.' }),
      ),
    },
    { additionalProperties: false, description: "The reply's text matches `pattern` (bounded; see docs/evals.md)." },
  ),
  Type.Object(
    {
      type: Type.Literal('equals'),
      value: Type.String({ maxLength: 32_000 }),
      trim: Type.Optional(
        Type.Boolean({ description: 'Compare without leading and trailing whitespace (default true).' }),
      ),
    },
    { additionalProperties: false, description: "The reply's text is exactly `value`." },
  ),
  Type.Object(
    {
      type: Type.Literal('jsonSchema'),
      schema: JsonObject('A JSON Schema (draft 2020-12 subset Ajv reads), at most 16 KiB as JSON.'),
    },
    {
      additionalProperties: false,
      description: "The reply's text is JSON (a fenced ```json block is read too) valid against `schema`.",
    },
  ),
  Type.Object(
    {
      type: Type.Literal('toolCalled'),
      name: ToolName,
      input: Type.Optional(
        JsonObject(
          'A partial match: each field given must be in the call’s input with an equal value (objects compared the same way, recursively).',
        ),
      ),
    },
    { additionalProperties: false, description: 'The model called tool `name` (with matching `input`, if given).' },
  ),
  Type.Object(
    {
      type: Type.Literal('noToolCalled'),
      name: Type.Optional(ToolName),
    },
    { additionalProperties: false, description: 'The model called no tool (or, with `name`, not that one).' },
  ),
  Type.Object(
    {
      type: Type.Literal('finishReason'),
      value: StringEnum(finishReasons),
    },
    { additionalProperties: false, description: "The last reply's `finishReason` is `value`." },
  ),
  Type.Object(
    {
      type: Type.Literal('latencyMs'),
      max: Type.Integer({ minimum: 0, maximum: 3_600_000 }),
    },
    { additionalProperties: false, description: 'The replies of the case took at most `max` milliseconds in all.' },
  ),
  Type.Object(
    {
      type: Type.Literal('tokens'),
      max: Type.Integer({ minimum: 0, maximum: 100_000_000 }),
    },
    { additionalProperties: false, description: 'The replies of the case used at most `max` tokens in all.' },
  ),
  Type.Object(
    {
      type: Type.Literal('costUsd'),
      max: Type.Number({ minimum: 0, maximum: 1_000_000 }),
    },
    { additionalProperties: false, description: 'The replies of the case cost at most `max` US dollars in all.' },
  ),
  Type.Object(
    {
      type: Type.Literal('rubric'),
      criteria: Text(4000, 'What a good reply does, for the judge model.'),
      minScore: Type.Optional(
        Type.Number({ minimum: 0, maximum: 1, description: 'The score from which the case passes (default 0.5).' }),
      ),
    },
    {
      additionalProperties: false,
      description: 'A judge model scores the reply against `criteria` from 0 to 1 and says why.',
    },
  ),
] as const;

export const scorerTypes = [
  'contains',
  'notContains',
  'regex',
  'equals',
  'jsonSchema',
  'toolCalled',
  'noToolCalled',
  'finishReason',
  'latencyMs',
  'tokens',
  'costUsd',
  'rubric',
] as const;
export type ScorerType = (typeof scorerTypes)[number];

export const ScorerSpec = Type.Union([...scorerSchemas], {
  title: 'EvalScorer',
  description:
    'One scorer: `contains`, `notContains`, `regex`, `equals`, `jsonSchema`, `toolCalled`, `noToolCalled`, ' +
    '`finishReason`, `latencyMs`, `tokens`, `costUsd` (deterministic, score 0 or 1) or `rubric` (a judge model, ' +
    'score 0–1).',
});
export type ScorerSpecValue = Static<typeof ScorerSpec>;

export const EvalCase = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[A-Za-z0-9_.:-]+$',
      description: 'Unique within the dataset: letters, digits, `_ . : -`.',
    }),
    messages: Type.Array(Text(32_000), {
      minItems: 1,
      maxItems: 10,
      description:
        'The user messages, sent in order in one conversation of the case’s own; the scorers judge the last reply ' +
        '(tool calls, latency, tokens and cost: over all replies of the case).',
    }),
    userId: Type.Optional(
      Text(200, 'Who speaks, as the model sees it. Never a real conversation: see docs/evals.md, "Isolation".'),
    ),
    context: Type.Optional(JsonObject("Given with each message, as a message's `context` (at most 16 KiB as JSON).")),
    allowSideEffects: Type.Optional(
      Type.Union([Type.Boolean(), Type.Array(ToolName, { maxItems: 100, uniqueItems: true })], {
        description:
          'Tools with side effects (POST requests, transfers, platform posts, A2A messages) are not run in an eval: ' +
          'the model gets `{"stubbed": true, "reason": "not executed in an eval"}`. `true` runs them all for ' +
          'this case, a list runs the tools named. Default false.',
      }),
    ),
    expect: Type.Array(ScorerSpec, {
      maxItems: 20,
      description: 'The scorers of this case (none: it passes when it answers).',
    }),
  },
  { additionalProperties: false, title: 'EvalCase' },
);
export type EvalCaseValue = Static<typeof EvalCase>;

const Cases = Type.Array(EvalCase, { maxItems: 1000, description: 'At most 1,000 cases, with unique ids.' });
const Description = Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]);

export const CreateEvalDatasetBody = Type.Object(
  {
    name: Text(100),
    description: Type.Optional(Description),
    cases: Cases,
  },
  { additionalProperties: false },
);
export type CreateEvalDatasetInput = Static<typeof CreateEvalDatasetBody>;

export const UpdateEvalDatasetBody = Type.Object(
  {
    name: Type.Optional(Text(100)),
    description: Type.Optional(Description),
    cases: Type.Optional(Cases),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateEvalDatasetInput = Static<typeof UpdateEvalDatasetBody>;

export const EvalDatasetParams = Type.Object({ datasetId: Type.String({ maxLength: 100 }) });

const datasetFields = {
  id: IdString('evalDataset'),
  name: Type.String(),
  description: NullableInResponse('string'),
  caseCount: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const EvalDatasetSummarySchema = Type.Object(datasetFields, { title: 'EvalDatasetSummary' });
export type EvalDatasetSummaryView = Static<typeof EvalDatasetSummarySchema>;
export const EvalDatasetSchema = Type.Object(
  { ...datasetFields, cases: Type.Array(EvalCase) },
  { title: 'EvalDataset' },
);
export type EvalDatasetView = Static<typeof EvalDatasetSchema>;

export const ListQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page, 1–100 (default 20).' }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListQueryValue = Static<typeof ListQuery>;

const Pagination = Type.Object({
  limit: Type.Integer(),
  hasMore: Type.Boolean(),
  nextCursor: NullableInResponse('string'),
});

export const EvalDatasetList = Type.Object({ data: Type.Array(EvalDatasetSummarySchema), pagination: Pagination });
export type EvalDatasetListView = Static<typeof EvalDatasetList>;

export const DeletedEvalDataset = Type.Object({ id: Type.String(), deleted: Type.Boolean() });

/* Eval runs */

const VersionNumber = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

const Judge = Type.Object(
  {
    provider: Text(50, 'A provider enabled on this server (GET /v1/openai/models lists them).'),
    model: Text(200),
  },
  {
    additionalProperties: false,
    description:
      "The model that scores `rubric` scorers, called with the operator's credentials (default: the agent's own " +
      'model, with its key).',
  },
);

export const CreateEvalBody = Type.Object(
  {
    datasetId: IdString('evalDataset'),
    versions: Type.Optional(
      Type.Array(VersionNumber, {
        minItems: 1,
        maxItems: 2,
        uniqueItems: true,
        description: "One version of the agent, or two to compare (default: the agent's current version).",
      }),
    ),
    judge: Type.Optional(Judge),
    concurrency: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10,
        description:
          "Cases answered at once (default 2), never more than the agent's in-flight limit; each reply also waits " +
          "for one of the agent's in-flight slots, as background messages do.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateEvalInput = Static<typeof CreateEvalBody>;

export const AgentEvalParams = Type.Object({
  agentId: Type.String({ maxLength: 100 }),
  evalId: Type.String({ maxLength: 100 }),
});

const ScorerTotal = Type.Object({
  type: StringEnum(scorerTypes),
  count: Type.Integer({ description: 'Scores given (cases with this scorer that were answered).' }),
  passed: Type.Integer(),
  meanScore: Type.Number({ description: 'The mean score, 0–1 (0 when none was given).' }),
});

export const VersionTotals = Type.Object(
  {
    version: Type.Integer(),
    cases: Type.Integer({ description: 'Cases of this version with a result.' }),
    passed: Type.Integer({ description: 'Cases every scorer of which passed.' }),
    failed: Type.Integer({ description: 'Cases answered, with a scorer that did not pass.' }),
    errored: Type.Integer({ description: 'Cases whose reply could not be given (each scorer then scores 0).' }),
    scorers: Type.Array(ScorerTotal, { description: 'Per scorer type, in the order of `scorerTypes`.' }),
  },
  { title: 'EvalVersionTotals' },
);

const evalFields = {
  id: IdString('eval'),
  agentId: Type.String(),
  datasetId: Type.String(),
  datasetName: Type.String({ description: 'The dataset as it was when the eval was created (its cases are a copy).' }),
  versions: Type.Array(Type.Integer()),
  judge: Type.Object({ provider: Type.String(), model: Type.String() }),
  concurrency: Type.Integer(),
  status: StringEnum(evalStatuses, {
    description:
      '`queued`, `running` (on one instance; another takes it over if that one stops), then `completed`, ' +
      '`failed` (`error` says why) or `cancelled`.',
  }),
  progress: Type.Object({
    total: Type.Integer({ description: 'Cases times versions.' }),
    done: Type.Integer({ description: 'Results recorded so far.' }),
  }),
  totals: Type.Array(VersionTotals, { description: 'Per version, in the order of `versions`.' }),
  differing: Type.Integer({ description: 'Cases whose outcome differs between the two versions (0 with one).' }),
  error: Type.Unsafe<Record<string, unknown> | null>(Type.Union([Type.Ref(ProblemSchema), Type.Null()])),
  takeovers: Type.Integer({ description: 'How many times another instance took the eval over.' }),
  createdAt: Timestamp,
  startedAt: NullableTimestamp(),
  finishedAt: NullableTimestamp(),
};

export const EvalSummarySchema = Type.Object(evalFields, { title: 'EvalSummary' });
export type EvalSummaryView = Static<typeof EvalSummarySchema>;

const ToolCallResult = Type.Object({
  name: Type.String(),
  input: Type.Unknown(),
  output: Type.Optional(Type.Unknown()),
  error: Type.Optional(Type.String()),
  stubbed: Type.Boolean({ description: 'Not run: it has side effects and the case did not allow it.' }),
});

const Score = Type.Object({
  type: StringEnum(scorerTypes),
  score: Type.Number({ description: '0–1.' }),
  passed: Type.Boolean(),
  reason: Type.String(),
});

const CaseVersionResult = Type.Object({
  version: Type.Integer(),
  status: StringEnum(['completed', 'failed'] as const, {
    description: '`failed`: a reply could not be given (`error`); every scorer then scores 0.',
  }),
  passed: Type.Boolean({ description: 'Every scorer passed.' }),
  replies: Type.Array(Type.String(), { description: 'The text of each reply, in the order of the messages.' }),
  text: Type.String({ description: 'The last reply, which the text scorers judge.' }),
  toolCalls: Type.Array(ToolCallResult),
  finishReason: NullableInResponse('string'),
  latencyMs: Type.Integer(),
  usage: Type.Object({ inputTokens: Type.Integer(), outputTokens: Type.Integer(), totalTokens: Type.Integer() }),
  costUsd: Type.Number(),
  runIds: Type.Array(Type.String(), { description: 'The runs (trigger `eval`) of the replies: GET …/runs/{runId}.' }),
  scores: Type.Array(Score),
  error: Type.Unsafe<Record<string, unknown> | null>(Type.Union([Type.Ref(ProblemSchema), Type.Null()])),
  finishedAt: Timestamp,
});
export type CaseVersionResultView = Static<typeof CaseVersionResult>;

const CaseResult = Type.Object({
  caseId: Type.String(),
  position: Type.Integer({ description: "The case's place in the dataset, from 0." }),
  differs: Type.Boolean({
    description: 'With two versions: both have a result and some scorer passed for one and not the other.',
  }),
  results: Type.Array(CaseVersionResult, {
    description: 'Per version with a result so far, in the order of `versions`.',
  }),
});

export const EvalSchema = Type.Object(
  {
    ...evalFields,
    cases: Type.Array(CaseResult, {
      description:
        'Cases with a result, those whose outcome differs between the versions first, then in dataset order; ' +
        'one page of them (`casesPagination`).',
    }),
    casesPagination: Pagination,
  },
  { title: 'Eval' },
);
export type EvalView = Static<typeof EvalSchema>;

export const GetEvalQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, description: 'Cases per page, 1–200 (default 50).' }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'The `casesPagination.nextCursor`.' }),
    ),
    differsOnly: Type.Optional(Type.Boolean({ description: 'Only the cases whose outcome differs.' })),
  },
  { additionalProperties: false },
);
export type GetEvalQueryValue = Static<typeof GetEvalQuery>;

export const EvalList = Type.Object({ data: Type.Array(EvalSummarySchema), pagination: Pagination });
export type EvalListView = Static<typeof EvalList>;

import { Type, type Static } from '@sinclair/typebox';
import { IdString, NullableInResponse, Timestamp } from './common.js';
import { messageLimits } from './messages.js';

/**
 * Long-term memory: the per-agent `memory` settings, and the memory API
 * (GET/PATCH /v1/agents/{agentId}/memory).
 */

export const memoryDefaults = {
  summary: true,
  facts: true,
  recall: true,
  budgets: { historyTokens: null as number | null, summaryTokens: 400, factsTokens: 300, recallTokens: 400 },
  /**
   * When facts and the summary are brought up to date (see docs/memory.md):
   * chosen so that a conversation costs at most 1.25 model requests per user
   * message with memory on (bench/README.md, "memory: model requests").
   */
  schedule: { everyUserTurns: 8, idleSeconds: 600 },
};

export const scheduleLimits = {
  everyUserTurns: { minimum: 1, maximum: 50 },
  idleSeconds: { minimum: 10, maximum: 86_400 },
} as const;

const everyUserTurns = Type.Integer({
  ...scheduleLimits.everyUserTurns,
  description:
    `Facts are extracted once this many user turns that say something wait, in one model call ` +
    `(default ${memoryDefaults.schedule.everyUserTurns}; 1: after every exchange). Turns about to leave the ` +
    'window are processed first whatever the count; greetings and thanks alone cost no call.',
});
const idleSeconds = Type.Integer({
  ...scheduleLimits.idleSeconds,
  description:
    'Turns still waiting are processed once the conversation has had no message for this long ' +
    `(default ${memoryDefaults.schedule.idleSeconds}).`,
});

const sectionBudget = (what: string, fallback: number) =>
  Type.Integer({
    minimum: 0,
    maximum: 32_000,
    description: `Tokens the prompt gives ${what} at most (default ${fallback}).`,
  });
const historyTokens = Type.Integer({
  minimum: 0,
  maximum: 1_000_000,
  description:
    'Tokens the recent turns may take at most. Default null: the smaller of 3,000 and half of what the model’s ' +
    'context window leaves, so a message’s cost does not grow with the conversation; 1000000: as much as the ' +
    'window leaves. Turns beyond it are folded into the summary and can be recalled (with memory off, they are ' +
    'not carried). The window moves in steps, so consecutive prompts share their history for prompt caches.',
});

const switches = {
  summary: 'Fold turns that leave the window into a rolling summary carried by the prompt (default true).',
  facts: 'Extract facts about each user (batched, see schedule) and carry those of the users present (default true).',
  recall: 'Carry the earlier turns most relevant to the message, from outside the window (default true).',
} as const;

export const MemorySettingsInput = Type.Object(
  {
    summary: Type.Optional(Type.Boolean({ description: switches.summary })),
    facts: Type.Optional(Type.Boolean({ description: switches.facts })),
    recall: Type.Optional(Type.Boolean({ description: switches.recall })),
    budgets: Type.Optional(
      Type.Object(
        {
          historyTokens: Type.Optional(Type.Union([historyTokens, Type.Null()])),
          summaryTokens: Type.Optional(sectionBudget('the summary', memoryDefaults.budgets.summaryTokens)),
          factsTokens: Type.Optional(sectionBudget('facts', memoryDefaults.budgets.factsTokens)),
          recallTokens: Type.Optional(sectionBudget('recalled turns', memoryDefaults.budgets.recallTokens)),
        },
        { additionalProperties: false },
      ),
    ),
    schedule: Type.Optional(
      Type.Object(
        { everyUserTurns: Type.Optional(everyUserTurns), idleSeconds: Type.Optional(idleSeconds) },
        {
          additionalProperties: false,
          description: 'When memory work (and its model calls) runs: in batches, not after every exchange.',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'Long-term memory: what the agent keeps beyond its context window, and the prompt share of each.',
  },
);
export type MemorySettingsInputValue = Static<typeof MemorySettingsInput>;

/** The same, as a JSON Merge Patch: null resets a field to its default. */
export const MemorySettingsPatch = Type.Object(
  {
    summary: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    facts: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    recall: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    budgets: Type.Optional(
      Type.Union([
        Type.Object(
          {
            historyTokens: Type.Optional(Type.Union([historyTokens, Type.Null()])),
            summaryTokens: Type.Optional(Type.Union([sectionBudget('the summary', 400), Type.Null()])),
            factsTokens: Type.Optional(Type.Union([sectionBudget('facts', 300), Type.Null()])),
            recallTokens: Type.Optional(Type.Union([sectionBudget('recalled turns', 400), Type.Null()])),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ]),
    ),
    schedule: Type.Optional(
      Type.Union([
        Type.Object(
          {
            everyUserTurns: Type.Optional(Type.Union([everyUserTurns, Type.Null()])),
            idleSeconds: Type.Optional(Type.Union([idleSeconds, Type.Null()])),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type MemorySettingsPatchValue = Static<typeof MemorySettingsPatch>;

export const MemorySettingsView = Type.Object({
  summary: Type.Boolean(),
  facts: Type.Boolean(),
  recall: Type.Boolean(),
  budgets: Type.Object({
    historyTokens: Type.Unsafe<number | null>({ type: ['integer', 'null'] }),
    summaryTokens: Type.Integer(),
    factsTokens: Type.Integer(),
    recallTokens: Type.Integer(),
  }),
  schedule: Type.Object({
    everyUserTurns: Type.Integer(),
    idleSeconds: Type.Integer(),
  }),
});
export type MemorySettings = Static<typeof MemorySettingsView>;

const selector = {
  userId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: messageLimits.participantId,
      description:
        "Alone: the private conversation with this user, and the user's facts. With roomId: the user's facts.",
    }),
  ),
  roomId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: messageLimits.participantId,
      description: "The room's conversation (its summary).",
    }),
  ),
};

export const MemoryQuery = Type.Object(selector, { additionalProperties: false });
export type MemoryQueryValue = Static<typeof MemoryQuery>;

export const factLimits = { subject: 100, statement: 500, editsPerRequest: 100, summary: 20_000 } as const;

export const MemoryFact = Type.Object({
  id: IdString('fact'),
  userId: Type.String(),
  subject: Type.String({ description: 'What the fact is about (`name`, `location`, …): one fact per subject.' }),
  statement: Type.String(),
  sourceMessageId: NullableInResponse('string', {
    description: 'The turn the fact was extracted from; null when written through this API.',
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type MemoryFactView = Static<typeof MemoryFact>;

export const MemoryView = Type.Object({
  agentId: IdString('agent'),
  userId: NullableInResponse('string'),
  roomId: NullableInResponse('string'),
  summary: NullableInResponse('string', { description: 'The rolling summary of the conversation, or null.' }),
  summarizedThrough: NullableInResponse('string', {
    description: 'The newest turn folded into the summary.',
  }),
  facts: Type.Array(MemoryFact, { description: "The user's facts (empty without userId)." }),
});
export type MemoryViewValue = Static<typeof MemoryView>;

const Subject = Type.String({
  minLength: 1,
  maxLength: factLimits.subject,
  pattern: '^[a-z0-9][a-z0-9_:. -]*$',
  description: 'Lower-case words, e.g. `name`, `location`, `preference:units`.',
});
const Statement = Type.String({ minLength: 1, maxLength: factLimits.statement, pattern: '\\S' });

export const FactEdit = Type.Union([
  Type.Object({ id: IdString('fact'), statement: Statement }, { additionalProperties: false, title: 'ReplaceFact' }),
  Type.Object(
    { id: IdString('fact'), delete: Type.Literal(true) },
    { additionalProperties: false, title: 'DeleteFact' },
  ),
  Type.Object({ subject: Subject, statement: Statement }, { additionalProperties: false, title: 'SetFact' }),
]);
export type FactEditValue = Static<typeof FactEdit>;

export const UpdateMemoryBody = Type.Object(
  {
    summary: Type.Optional(
      Type.Union([Type.String({ maxLength: factLimits.summary }), Type.Null()], {
        description: 'Replaces the summary; null or "" clears it.',
      }),
    ),
    facts: Type.Optional(
      Type.Array(FactEdit, {
        maxItems: factLimits.editsPerRequest,
        description:
          'Edits of the user’s facts (needs userId), applied in order: `{id, statement}` rewrites a fact, ' +
          '`{id, delete: true}` forgets it (a fact already gone is no error), `{subject, statement}` sets the fact on ' +
          'that subject.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateMemoryBodyValue = Static<typeof UpdateMemoryBody>;

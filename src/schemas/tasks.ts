import { Type, type Static } from '@sinclair/typebox';
import { IdString, NullableInResponse, NullableTimestamp, StringEnum, Timestamp } from './common.js';
import { runStatuses } from './runs.js';

/**
 * Tasks: work an agent does on its own, on a schedule (see docs/tasks.md).
 * Each due time becomes a run (trigger `task`) that any instance may claim,
 * once over the whole fleet.
 */

export const taskLimits = {
  nameLength: 200,
  instructionsLength: 8_000,
  cronLength: 200,
  timezoneLength: 100,
  targetLength: 200,
} as const;

/** A task whose last runs failed this many times in a row is paused. */
export const failuresBeforePause = 3;

const CronSchedule = Type.Object(
  {
    cron: Type.String({
      minLength: 1,
      maxLength: taskLimits.cronLength,
      examples: ['0 8 * * 1-5', '@daily'],
      description:
        'A five-field cron expression (minute hour day-of-month month day-of-week), e.g. `0 8 * * 1-5`, or a ' +
        'nickname such as `@daily`.',
    }),
    timezone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: taskLimits.timezoneLength,
        default: 'UTC',
        examples: ['Europe/Berlin', 'UTC'],
        description:
          'The IANA time zone the expression is read in (default `UTC`), e.g. `Europe/Berlin`. Across a DST ' +
          'change a time that does not exist runs at the first minute after it, a time that happens twice runs once.',
      }),
    ),
  },
  { additionalProperties: false, title: 'CronSchedule' },
);

const IntervalSchedule = Type.Object(
  {
    everySeconds: Type.Integer({
      minimum: 1,
      maximum: 366 * 24 * 3600,
      examples: [3600],
      description:
        'Seconds between due times, counted from when the schedule was set; at least 60 unless the operator ' +
        'lowered AGENTD_TASK_MIN_INTERVAL_SECONDS.',
    }),
  },
  { additionalProperties: false, title: 'IntervalSchedule' },
);

const OnceSchedule = Type.Object(
  {
    at: Type.String({
      minLength: 1,
      maxLength: 64,
      examples: ['2030-01-31T08:00:00+01:00'],
      description: 'One due time, RFC 3339 with an offset (e.g. `2030-01-31T08:00:00+01:00`); a past time runs now.',
    }),
  },
  { additionalProperties: false, title: 'OnceSchedule' },
);

export const TaskSchedule = Type.Union([CronSchedule, IntervalSchedule, OnceSchedule], {
  description: 'When the task is due: `{ cron, timezone }`, `{ everySeconds }` or `{ at }` (once).',
});
export type TaskScheduleValue = Static<typeof TaskSchedule>;

export const outputPlatforms = ['telegram', 'slack', 'discord', 'x', 'bluesky'] as const;

const NoOutput = Type.Object(
  { type: Type.Literal('none') },
  { additionalProperties: false, title: 'NoOutput', description: 'The reply is kept in the run only.' },
);
const PlatformOutput = Type.Object(
  {
    type: Type.Literal('platform'),
    platform: StringEnum(outputPlatforms, { description: "One of the agent's platforms." }),
    target: Type.String({
      minLength: 1,
      maxLength: taskLimits.targetLength,
      description:
        'Where the reply is posted: a Telegram chat id (or `@channel`), a Slack channel id (`<channel>/<thread ts>` ' +
        'for a thread) or a Discord channel id; for X and ' +
        'Bluesky `timeline` (a post of its own) or the post to reply to (an X post id, a Bluesky at:// URI).',
    }),
  },
  {
    additionalProperties: false,
    title: 'PlatformOutput',
    description: "The reply is posted to `target` with the agent's connector of `platform`.",
  },
);
const WebhookOutput = Type.Object(
  { type: Type.Literal('webhook') },
  {
    additionalProperties: false,
    title: 'WebhookOutput',
    description: 'A `task.completed` webhook event carries the reply to subscribed webhooks.',
  },
);

export const TaskOutput = Type.Union([NoOutput, PlatformOutput, WebhookOutput], {
  description: 'Where the reply goes besides the run: nowhere else, a platform target, or webhooks.',
});
export type TaskOutputValue = Static<typeof TaskOutput>;

const Name = Type.String({ minLength: 1, maxLength: taskLimits.nameLength });
const Instructions = Type.String({
  minLength: 1,
  maxLength: taskLimits.instructionsLength,
  description:
    "What the agent is asked to do at each due time: the run's message (the agent's goals are in its prompt).",
});

export const CreateTaskBody = Type.Object(
  {
    name: Name,
    instructions: Instructions,
    schedule: TaskSchedule,
    output: Type.Optional(TaskOutput),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);
export type CreateTaskInput = Static<typeof CreateTaskBody>;

export const UpdateTaskBody = Type.Object(
  {
    name: Type.Optional(Name),
    instructions: Type.Optional(Instructions),
    schedule: Type.Optional(TaskSchedule),
    output: Type.Optional(TaskOutput),
    enabled: Type.Optional(
      Type.Boolean({ description: 'true resumes a paused task (its failures are forgotten); false pauses it.' }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateTaskInput = Static<typeof UpdateTaskBody>;

export const TaskIdParams = Type.Object(
  {
    agentId: Type.String({ maxLength: 100 }),
    taskId: Type.String({ maxLength: 100 }),
  },
  { additionalProperties: false },
);

export const TaskSchema = Type.Object(
  {
    id: IdString('task'),
    agentId: Type.String(),
    name: Type.String(),
    instructions: Type.String(),
    schedule: TaskSchedule,
    output: TaskOutput,
    enabled: Type.Boolean(),
    pausedReason: NullableInResponse('string', {
      description: 'Why the service paused the task (e.g. its last 3 runs failed); null otherwise.',
    }),
    nextDueAt: NullableTimestamp('The next due time (RFC 3339); null when disabled or a one-off task has run.'),
    lastRunAt: NullableTimestamp('When the last run of the task ended.'),
    lastRunStatus: Type.Union([StringEnum(runStatuses), Type.Null()]),
    lastError: NullableInResponse('string', {
      description: 'Why the last run failed, or its output could not be delivered; null after a success.',
    }),
    consecutiveFailures: Type.Integer({
      description: `Failed runs in a row; at ${failuresBeforePause} the task is paused.`,
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Task', title: 'Task' },
);
export type TaskView = Static<typeof TaskSchema>;

export const ListTasksQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Tasks per page, 1–100 (20).' })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListTasksQueryValue = Static<typeof ListTasksQuery>;

export const TaskList = Type.Object({
  data: Type.Array(Type.Ref(TaskSchema)),
  pagination: Type.Object({ limit: Type.Integer(), hasMore: Type.Boolean(), nextCursor: NullableInResponse('string') }),
});
export type TaskListView = Static<typeof TaskList>;

export const DeletedTask = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });

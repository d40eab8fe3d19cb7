import { Type, type Static } from '@sinclair/typebox';
import { IdString, NullableInResponse, NullableTimestamp, ProblemSchema, StringEnum, Timestamp } from './common.js';
import { MessageReply } from './messages.js';

/**
 * Runs: one record of each piece of an agent's work, whoever started it, with
 * the events its stream sends (see docs/runs.md).
 */

/** Who started a run. Those after `door` came later than runs (their metric columns are added in the migration named). */
export const runTriggers = ['message', 'task', 'platform', 'door', 'mcp', 'a2a', 'approval', 'eval'] as const;
/** The migration that added each trigger's metric column, for those that did not come with runs. */
export const runTriggerAddedIn: Partial<Record<RunTrigger, string>> = {
  approval: '0013-approvals',
  mcp: '0017-door-triggers',
  a2a: '0017-door-triggers',
  eval: '0031-evals',
};
export type RunTrigger = (typeof runTriggers)[number];

/**
 * `skipped`: a task's due time that was not run: missed while every instance was down, or its agent stopped being
 * active between the claim and the run's start (see docs/tasks.md).
 */
/**
 * `waiting`: the run's reply ended with `approval_required`; it stays waiting until every tool call it asked
 * approval for is decided (or expired), then becomes `completed` and a new run (trigger `approval`) goes on.
 */
export const runStatuses = ['queued', 'running', 'waiting', 'completed', 'failed', 'cancelled', 'skipped'] as const;
export type RunStatus = (typeof runStatuses)[number];
export const finishedRunStatuses: ReadonlySet<RunStatus> = new Set(['completed', 'failed', 'cancelled', 'skipped']);
/** Statuses whose events are all written: a waiting run's reply has ended, only the decision is missing. */
export const settledRunStatuses: ReadonlySet<RunStatus> = new Set([...finishedRunStatuses, 'waiting']);

export const RunIdParams = Type.Object(
  {
    agentId: IdString('agent'),
    runId: IdString('run'),
  },
  { additionalProperties: false },
);

export const Run = Type.Object(
  {
    id: IdString('run'),
    agentId: IdString('agent'),
    trigger: StringEnum(runTriggers, {
      description:
        '`message`: POST /v1/agents/{id}/messages; `task`: a scheduled task; `platform`: a message on one of the ' +
        "agent's platforms; `door`: the OpenAI-compatible endpoint; `mcp`: a tool call of an MCP client " +
        '(`send_message`, `ask_<agent>`, at /v1/mcp); `a2a`: an A2A message (at /v1/a2a/{agentId}, its task id is the ' +
        "run's id); `approval`: the rest of a reply that paused for a decision, once it was taken (`approvalId` names it); " +
        '`eval`: a reply to a case of an eval (POST /v1/agents/{id}/evals), answered in isolation (docs/evals.md).',
    }),
    taskId: NullableInResponse('string', { description: 'The task whose due time this run is, for `task` runs.' }),
    approvalId: NullableInResponse('string', {
      description: 'For `approval` runs: the decision that resumed the reply (GET …/approvals/{approvalId}).',
    }),
    dueAt: NullableTimestamp("The task's due time this run is for (RFC 3339)."),
    agentVersion: Type.Unsafe<number | null>({
      type: ['integer', 'null'],
      description:
        "The agent's configuration version that produced the run (GET …/versions/{n}); null for runs made before " +
        'versions were recorded, and for runs not started yet.',
    }),
    takeovers: Type.Integer({
      description:
        'How many times another instance took the run over after the one producing it stopped (docs/runs.md, ' +
        '"When an instance stops").',
    }),
    status: StringEnum(runStatuses, {
      description:
        '`queued` (waiting for one of the agent’s in-flight slots), `running`, then `completed`, `failed`, ' +
        '`cancelled` (by POST …/cancel, or its client went away) or, for task due times not run, `skipped`. ' +
        '`waiting`: the reply ended with `approval_required` and waits for a decision on its approvals; it ' +
        'becomes `completed` when they are decided (the reply goes on in a run with trigger `approval`).',
    }),
    background: Type.Boolean({
      description: 'Produced by the service, not a connection: a background message or a task.',
    }),
    userId: NullableInResponse('string'),
    roomId: NullableInResponse('string'),
    input: Type.String({ description: 'The message (or the task’s instructions) the run answers.' }),
    messageId: NullableInResponse('string', { description: 'The id of the reply (`msg_…`) once it has begun.' }),
    reply: Type.Union([Type.Ref(MessageReply), Type.Null()], {
      description: 'The reply as POST …/messages returns it, once the run has ended with one (also when cancelled).',
    }),
    error: Type.Union([Type.Ref(ProblemSchema), Type.Null()], {
      description: 'Why the run failed or was cancelled, as a problem; null otherwise.',
    }),
    eventCount: Type.Integer({
      description:
        'Events recorded: the `id` of the last one. Exact once the run has ended, and on the instance producing it.',
    }),
    cancelRequestedAt: NullableTimestamp(),
    createdAt: Timestamp,
    startedAt: NullableTimestamp(),
    finishedAt: NullableTimestamp(),
  },
  { $id: 'Run', title: 'Run' },
);
export type RunView = Static<typeof Run>;

export const ListRunsQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(runStatuses)),
    trigger: Type.Optional(StringEnum(runTriggers)),
    taskId: Type.Optional(IdString('task', 'Only the runs of this task (the `taskId` of a run).')),
    task: Type.Optional(
      Type.Unsafe<string>({
        ...IdString(
          'task',
          'Deprecated: the former name of `taskId`, still read. Sent with `taskId`, it must be equal.',
        ),
        deprecated: true,
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Runs per page, 1–100 (default 20).' })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListRunsQueryValue = Static<typeof ListRunsQuery>;

export const RunList = Type.Object({
  data: Type.Array(Type.Ref(Run)),
  pagination: Type.Object({ limit: Type.Integer(), hasMore: Type.Boolean(), nextCursor: NullableInResponse('string') }),
});
export type RunListView = Static<typeof RunList>;

export const RunEventsHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,9}$',
      description: 'The `id` of the last event received: the stream resumes after it.',
    }),
  ),
});

export const RunEventsQuery = Type.Object(
  {
    after: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 999_999_999,
        description: 'The same as `Last-Event-ID`, for clients that cannot set headers (the header wins).',
      }),
    ),
  },
  { additionalProperties: false },
);

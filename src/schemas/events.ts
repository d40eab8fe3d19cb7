import { Type, type Static } from '@sinclair/typebox';
import { IdString, NullableInResponse, StringEnum, Timestamp } from './common.js';

/** An agent's lifecycle and audit trail: what changed, when, and by whom. */

export const agentEventTypes = [
  'agent.created',
  'agent.updated',
  'agent.status_changed',
  'agent.budget_exceeded',
  'agent.deleted',
  'connector.started',
  'connector.stopped',
  'connector.failed',
  'connector.received',
  'connector.posted',
  'memory.updated',
  'run.completed',
  'run.failed',
  'run.cancelled',
  'run.waiting',
  'task.paused',
  'tool.transfer',
] as const;

export const AgentEvent = Type.Object(
  {
    id: IdString('event'),
    agentId: Type.String(),
    type: StringEnum(agentEventTypes, {
      description: 'What happened; more types (e.g. `connector.*`) may be added, so ignore those you do not know.',
    }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description:
        '`agent.created`: name, status. `agent.updated`: `fields` changed, with `plugins`/`platforms` entries ' +
        '(`entry`, `change`, `secretsChanged` names) and `model.fields`; never a secret value. ' +
        '`agent.status_changed`: from, to, reason, by (`owner` or `service`). `agent.deleted`: name. ' +
        '`agent.budget_exceeded`: a spend limit refused a message or task (once per limit and period): scope, ' +
        'unit, period, limit, spent, reserved, resetsAt. ' +
        '`connector.started`, `connector.stopped`, `connector.failed`: platform (its type), reason. ' +
        '`connector.received`: a social connector took a post addressed to the agent (platform, postId, userId). ' +
        '`connector.posted`: it posted (platform, postId, inReplyTo, part and parts of a thread, source: `reply`, ' +
        '`task` or `api`); never the text. ' +
        '`memory.updated`: userId, roomId, `summary` (true when it changed), `facts` ({ added, replaced, removed } ' +
        'counts), `source` (`background` or `api`); never the remembered text. ' +
        '`run.completed`, `run.failed`, `run.cancelled`: a run the service produced (a background message, a task) ' +
        'ended: runId, trigger, taskId, messageId, and for a failed one the problem `code`; `run.waiting`: such a ' +
        'run paused for approvals. ' +
        '`task.paused`: taskId, name, reason, consecutiveFailures. ' +
        '`tool.transfer`: the `evm` plugin sent a transfer: chain, chainId, from, to, asset (`native` or the ' +
        "token's symbol), tokenAddress, amount ({ baseUnits, formatted }), hash; never the key.",
    }),
    actor: Type.String({ description: 'The id of the API key that made the change, or `service`.' }),
    requestId: NullableInResponse('string', { description: 'The request that made the change.' }),
    createdAt: Timestamp,
  },
  { title: 'AgentEvent' },
);
export type AgentEventView = Static<typeof AgentEvent>;

export const ListEventsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Events per page, 1–100 (default 20).' }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListEventsQueryValue = Static<typeof ListEventsQuery>;

/** GET /v1/events: the same pages as one agent's trail, over every agent of the account, optionally narrowed. */
export const ListAccountEventsQuery = Type.Object(
  {
    ...ListEventsQuery.properties,
    agentId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "Only this agent's events (deleted agents included)." }),
    ),
    type: Type.Optional(StringEnum(agentEventTypes, { description: 'Only events of this type.' })),
  },
  { additionalProperties: false },
);
export type ListAccountEventsQueryValue = Static<typeof ListAccountEventsQuery>;

export const EventList = Type.Object({
  data: Type.Array(AgentEvent),
  pagination: Type.Object({ limit: Type.Integer(), hasMore: Type.Boolean(), nextCursor: NullableInResponse('string') }),
});
export type EventListView = Static<typeof EventList>;

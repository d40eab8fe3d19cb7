import { Type, type Static } from '@sinclair/typebox';
import { IdString, NullableInResponse, NullableTimestamp, StringEnum, Timestamp } from './common.js';
import { VersionTotals } from './evals.js';

/** The events a webhook can subscribe to: a closed list. */
export const webhookEventTypes = [
  'agent.created',
  'agent.updated',
  'agent.deleted',
  'agent.status_changed',
  'agent.budget_exceeded',
  'agent.version_created',
  'message.completed',
  'message.failed',
  'memory.updated',
  'task.completed',
  'task.failed',
  'task.paused',
  'approval.requested',
  'eval.completed',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

const EventType = StringEnum(webhookEventTypes);
const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  format: 'uri',
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  description:
    'Where events are POSTed: an http(s) URL. Loopback, private and link-local addresses are refused ' +
    'unless the operator set AGENTD_OUTBOUND_ALLOW_PRIVATE.',
});
const Events = Type.Array(EventType, { minItems: 1, maxItems: webhookEventTypes.length, uniqueItems: true });
const Description = Type.Union([Type.String({ maxLength: 500 }), Type.Null()]);

export const CreateWebhookBody = Type.Object(
  {
    url: Url,
    events: Events,
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);
export type CreateWebhookInput = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>;

const webhookFields = {
  id: IdString('webhook'),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: NullableInResponse('string'),
  enabled: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const WebhookSchema = Type.Object(webhookFields, { title: 'Webhook' });
export type WebhookView = Static<typeof WebhookSchema>;

const Secret = Type.String({
  description:
    'The signing secret (`whsec_…`, Standard Webhooks). Shown only in this response: store it now to verify ' +
    'the `webhook-signature` header.',
});
export const CreatedWebhookSchema = Type.Object({ ...webhookFields, secret: Secret }, { title: 'CreatedWebhook' });
export type CreatedWebhookView = Static<typeof CreatedWebhookSchema>;
export const RotatedSecretSchema = Type.Object({ id: IdString('webhook'), secret: Secret });

export const WebhookIdParams = Type.Object({ webhookId: Type.String({ maxLength: 100 }) });
export const DeliveryIdParams = Type.Object({
  webhookId: Type.String({ maxLength: 100 }),
  deliveryId: Type.String({ maxLength: 100 }),
});

export const ListWebhooksQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Page number (default 1).' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Webhooks per page, 1–100 (20).' })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListWebhooksQueryValue = Static<typeof ListWebhooksQuery>;

export const WebhookList = Type.Object({
  data: Type.Array(WebhookSchema),
  pagination: Type.Object({
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer(),
    totalPages: Type.Integer(),
    hasMore: Type.Boolean(),
    nextCursor: NullableInResponse('string'),
  }),
});
export type WebhookListView = Static<typeof WebhookList>;

export const DeletedWebhook = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });

const Attempt = Type.Object({
  attempt: Type.Integer({ description: '1 for the first attempt.' }),
  statusCode: Type.Union([Type.Integer(), Type.Null()], {
    description: "The receiver's HTTP status; null when it did not answer.",
  }),
  durationMs: Type.Integer(),
  error: NullableInResponse('string', { description: 'Why the attempt failed; null on success.' }),
  at: Timestamp,
});

const deliveryStatuses = ['pending', 'succeeded', 'failed', 'cancelled'] as const;

export const DeliverySchema = Type.Object(
  {
    id: IdString('delivery'),
    webhookId: Type.String(),
    eventId: Type.String({ description: 'The `webhook-id` header: the same on every attempt and redelivery.' }),
    eventType: Type.String(),
    status: StringEnum(deliveryStatuses, {
      description:
        '`pending` until an attempt succeeds (2xx), attempts run out (`failed`), or the webhook is disabled or ' +
        'deleted (`cancelled`).',
    }),
    state: Type.Unsafe<(typeof deliveryStatuses)[number]>({
      ...StringEnum(deliveryStatuses),
      deprecated: true,
      description: 'Deprecated: the former name of `status`, with the same value.',
    }),
    attempts: Type.Integer(),
    nextAttemptAt: NullableTimestamp('When the next attempt is due, if pending.'),
    lastAttempt: Type.Union([Attempt, Type.Null()]),
    attemptLog: Type.Array(Attempt),
    createdAt: Timestamp,
  },
  { title: 'WebhookDelivery' },
);
export type DeliveryView = Static<typeof DeliverySchema>;

export const ListDeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Deliveries per page (20).' })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListDeliveriesQueryValue = Static<typeof ListDeliveriesQuery>;

export const DeliveryList = Type.Object({
  data: Type.Array(DeliverySchema),
  pagination: Type.Object({ limit: Type.Integer(), hasMore: Type.Boolean(), nextCursor: NullableInResponse('string') }),
});
export type DeliveryListView = Static<typeof DeliveryList>;

/* The bodies receivers get (published under `webhooks` in the OpenAPI document). */

const Usage = Type.Object({ inputTokens: Type.Integer(), outputTokens: Type.Integer(), totalTokens: Type.Integer() });
const agentEventData = {
  agentId: Type.String(),
  actor: Type.String({ description: 'The API key id that made the change, or `service`.' }),
  requestId: NullableInResponse('string'),
};

function envelope<Type extends WebhookEventType>(type: Type, data: ReturnType<typeof Type.Object>, about: string) {
  return Type.Object(
    { type: Type.Literal(type), timestamp: Timestamp, data },
    { title: `${type} event`, description: about },
  );
}

export const webhookPayloads: Record<WebhookEventType, ReturnType<typeof envelope>> = {
  'agent.created': envelope(
    'agent.created',
    Type.Object({ ...agentEventData, name: Type.String(), status: Type.String() }),
    'An agent was created.',
  ),
  'agent.updated': envelope(
    'agent.updated',
    Type.Object({
      ...agentEventData,
      fields: Type.Array(Type.String(), { description: 'Names of the fields that changed; never their values.' }),
      plugins: Type.Optional(Type.Array(Type.Object({ entry: Type.String(), change: Type.String() }))),
      platforms: Type.Optional(Type.Array(Type.Object({ entry: Type.String(), change: Type.String() }))),
      model: Type.Optional(Type.Object({ fields: Type.Array(Type.String()) })),
    }),
    'An agent was changed: which fields (and which plugin or platform entries, and secret names) changed.',
  ),
  'agent.deleted': envelope(
    'agent.deleted',
    Type.Object({ ...agentEventData, name: Type.String() }),
    'An agent was deleted.',
  ),
  'agent.status_changed': envelope(
    'agent.status_changed',
    Type.Object({
      ...agentEventData,
      from: Type.String(),
      to: Type.String(),
      reason: Type.String(),
      by: StringEnum(['owner', 'service'] as const),
    }),
    "An agent's status changed, by its owner or by the service (e.g. the provider rejected its credentials).",
  ),
  'agent.budget_exceeded': envelope(
    'agent.budget_exceeded',
    Type.Object({
      ...agentEventData,
      scope: StringEnum(['agent', 'account'] as const, { description: "Whose limit: the agent's or its account's." }),
      unit: StringEnum(['tokens', 'usd'] as const),
      period: StringEnum(['day', 'month'] as const, { description: 'A UTC day or month.' }),
      limit: Type.Number({ description: 'The limit, in `unit`.' }),
      spent: Type.Number({ description: 'What replies that ended spent in the period, in `unit`.' }),
      reserved: Type.Number({ description: 'What replies in flight reserved, in `unit`.' }),
      resetsAt: Timestamp,
    }),
    'A spend limit refused a message or task of the agent: sent once per limit and period (the first refusal), ' +
      'whichever instance refused it. The agent keeps its status; its `statusReason` says the same until it resets.',
  ),
  'agent.version_created': envelope(
    'agent.version_created',
    Type.Object({
      ...agentEventData,
      version: Type.Integer({ description: 'The new version of the agent’s configuration (1 at create).' }),
      keyId: Type.String({ description: 'The API key that made the change.' }),
      createdAt: Timestamp,
    }),
    "A change to an agent's configuration (create, PATCH, character import, restore, or a knowledge base it used " +
      'being deleted) was kept as a new version: GET /v1/agents/{agentId}/versions/{version} reads it. A change ' +
      'of status alone makes no version.',
  ),
  'message.completed': envelope(
    'message.completed',
    Type.Object({
      agentId: Type.String(),
      messageId: Type.String({ description: 'The id of the reply.' }),
      userId: NullableInResponse('string'),
      roomId: NullableInResponse('string'),
      finishReason: Type.String(),
      usage: Usage,
      model: Type.Object({ provider: Type.String(), name: Type.String() }),
      toolCallCount: Type.Integer({ description: 'How many tool calls the reply made.' }),
      toolCalls: Type.Integer({
        deprecated: true,
        description:
          'Deprecated: the former name of `toolCallCount` (in the reply itself `toolCalls` is the list of calls).',
      }),
      latencyMs: Type.Integer(),
      createdAt: Timestamp,
    }),
    'An agent answered a message. The texts are not included; read them from the conversation history.',
  ),
  'message.failed': envelope(
    'message.failed',
    Type.Object({
      agentId: Type.String(),
      messageId: Type.String(),
      userId: NullableInResponse('string'),
      roomId: NullableInResponse('string'),
      error: Type.Object({ code: Type.String(), status: Type.Integer(), detail: Type.String() }),
    }),
    "A reply failed: the model provider failed or rejected the agent's credentials.",
  ),
  'memory.updated': envelope(
    'memory.updated',
    Type.Object({
      ...agentEventData,
      userId: NullableInResponse('string'),
      roomId: NullableInResponse('string'),
      summary: Type.Boolean({ description: "Whether the conversation's summary changed." }),
      facts: Type.Object({ added: Type.Integer(), replaced: Type.Integer(), removed: Type.Integer() }),
      source: StringEnum(['background', 'api'] as const),
    }),
    "An agent's long-term memory of a conversation changed (summary or facts). The remembered text is not " +
      'included; read it from GET /v1/agents/{agentId}/memory.',
  ),
  'task.completed': envelope(
    'task.completed',
    Type.Object({
      agentId: Type.String(),
      taskId: Type.String(),
      name: Type.String({ description: "The task's name." }),
      runId: Type.String(),
      dueAt: NullableTimestamp('The due time the run was for; null for a run started now.'),
      messageId: Type.String({ description: 'The id of the reply.' }),
      text: Type.String({ description: "The agent's reply: the task's output." }),
      finishedAt: Timestamp,
      completedAt: Type.String({
        format: 'date-time',
        deprecated: true,
        description: 'Deprecated: the former name of `finishedAt` (the run’s name for the same time).',
      }),
    }),
    'A run of a task whose output is `webhook` completed; the reply is in `text`.',
  ),
  'task.failed': envelope(
    'task.failed',
    Type.Object({
      agentId: Type.String(),
      taskId: Type.String(),
      name: Type.String(),
      runId: Type.String(),
      dueAt: NullableTimestamp(),
      error: Type.Object({ code: Type.String(), status: Type.Integer(), detail: Type.String() }),
      consecutiveFailures: Type.Integer({ description: 'Failed runs of the task in a row, this one included.' }),
    }),
    'A run of a task failed, or its output could not be delivered (any output type).',
  ),
  'task.paused': envelope(
    'task.paused',
    Type.Object({
      ...agentEventData,
      taskId: Type.String(),
      name: Type.String(),
      reason: Type.String(),
      consecutiveFailures: Type.Integer(),
    }),
    'The service paused a task (`enabled: false`) because its last runs failed; PATCH `enabled: true` resumes it.',
  ),
  'approval.requested': envelope(
    'approval.requested',
    Type.Object({
      agentId: Type.String(),
      approvalId: Type.String(),
      runId: Type.String({ description: 'The run that paused.' }),
      toolCallId: Type.String(),
      name: Type.String({ description: 'The tool waiting for a decision.' }),
      userId: NullableInResponse('string'),
      roomId: NullableInResponse('string'),
      expiresAt: Timestamp,
    }),
    'The model called a tool that needs approval; the run waits for POST /v1/agents/{agentId}/approvals/' +
      '{approvalId}. The input is not included; read it from GET /v1/agents/{agentId}/approvals/{approvalId}.',
  ),
  'eval.completed': envelope(
    'eval.completed',
    Type.Object({
      agentId: Type.String(),
      evalId: Type.String(),
      datasetId: Type.String(),
      status: StringEnum(['completed', 'failed'] as const, { description: '`failed`: `error` says why.' }),
      versions: Type.Array(Type.Integer()),
      totals: Type.Array(VersionTotals, { description: 'Per version, as GET …/evals/{evalId} gives them.' }),
      differing: Type.Integer({ description: 'Cases whose outcome differs between the two versions.' }),
      error: Type.Unsafe<{ code: string; status: number; detail: string } | null>({
        anyOf: [Type.Object({ code: Type.String(), status: Type.Integer(), detail: Type.String() }), { type: 'null' }],
      }),
      finishedAt: Timestamp,
    }),
    'An eval of the agent ended (completed, or failed; a cancelled one sends nothing): its totals per version. ' +
      'Each case’s replies and scores are at GET /v1/agents/{agentId}/evals/{evalId}.',
  ),
};

import { Type, type Static } from '@sinclair/typebox';
import { PendingApproval } from './approvals.js';
import { IdString, NullableInResponse, StringEnum, Timestamp } from './common.js';
import { Attachment, AttachmentInput, maxAttachmentsPerMessage } from './files.js';
import { CitationView } from './knowledge-bases.js';

/**
 * Messages and conversations (contract §5): what a client sends, the reply it
 * gets (as JSON, or as the `message.completed` event of a stream) and stored
 * conversation turns.
 */

export const messageLimits = { text: 32_000, participantId: 200, contextBytes: 16_384 } as const;

const ParticipantId = (description: string) =>
  Type.String({ minLength: 1, maxLength: messageLimits.participantId, description });

export const SendMessageBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: messageLimits.text,
      description: 'The message, 1–32,000 characters.',
    }),
    userId: Type.Optional(
      ParticipantId('Who is speaking. Alone: a private conversation with this user, remembered across messages.'),
    ),
    roomId: Type.Optional(
      ParticipantId(
        'A shared conversation: everyone in the room shares its history, each turn labelled with its userId.',
      ),
    ),
    context: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'A JSON object given to the model with this message only (at most 16 KiB as JSON); not stored.',
      }),
    ),
    attachments: Type.Optional(
      Type.Array(AttachmentInput, {
        maxItems: maxAttachmentsPerMessage,
        description:
          'Images sent with the message (at most 4, each at most 5 MiB by default: AGENTD_MAX_IMAGE_BYTES), png, jpeg, ' +
          'webp or gif as their bytes say. A vision model sees them as image parts; the builtin model says what it ' +
          'can tell offline (type and pixel size). Stored with the turn (when the message belongs to a conversation) ' +
          'and served at /v1/files/{fileId}. Bad bytes, an unsupported type or a refused URL → 400; too large → 413; ' +
          'nothing is stored then.',
      }),
    ),
    stream: Type.Optional(Type.Boolean({ description: 'Answer as a text/event-stream (default false).' })),
    background: Type.Optional(
      Type.Boolean({
        description:
          'Produce the reply in the service, not on this connection (default false): answered 202 with the run at ' +
          'once, or with `stream: true` as the run’s event stream, which the client may leave and resume ' +
          '(GET …/runs/{runId}/events) without stopping the reply.',
      }),
    ),
  },
  { additionalProperties: false, title: 'SendMessage' },
);
export type SendMessageInput = Static<typeof SendMessageBody>;

export const finishReasons = [
  'stop',
  'length',
  'content-filter',
  'tool-calls',
  'error',
  'other',
  'aborted',
  'approval_required',
] as const;
const FinishReason = StringEnum(finishReasons, {
  description:
    '`stop` (complete), `length` (maxOutputTokens reached), `aborted` (the client went away), `error` (the provider failed mid-answer), ' +
    '`approval_required` (the model called a tool that waits for a person: see `approvals`), or another reason the provider gave.',
});

const ModelOfReply = Type.Object({ provider: Type.String(), name: Type.String() });

/** A tool the agent ran while answering: what the model asked for and what it was given back. */
export const ToolCallView = Type.Object(
  {
    toolCallId: Type.String({ description: "The model's id for this call." }),
    name: Type.String({ description: 'The tool, as the model knows it (e.g. fetch_url, mcp_add).' }),
    input: Type.Unknown({ description: 'The input the model gave (JSON).' }),
    output: Type.Optional(
      Type.Unknown({ description: 'What the tool returned, as given to the model (capped, with a marker when cut).' }),
    ),
    error: Type.Optional(Type.String({ description: 'What went wrong, as the model was told; no output then.' })),
    attachments: Type.Optional(
      Type.Array(Type.Ref(Attachment), { description: 'Images the tool made (stored files), when it made any.' }),
    ),
    durationMs: Type.Integer(),
    approval: Type.Optional(
      Type.Object(
        {
          approvalId: Type.String(),
          status: StringEnum(['approved', 'denied', 'expired'] as const),
          reason: NullableInResponse('string'),
        },
        { description: 'For a tool that waited for a person: their decision (the call ran only when `approved`).' },
      ),
    ),
  },
  { $id: 'ToolCall', title: 'ToolCall' },
);
export type ToolCallViewValue = Static<typeof ToolCallView>;

export const MessageReply = Type.Object(
  {
    id: IdString('message'),
    runId: IdString('run', 'The run this reply is: GET /v1/agents/{id}/runs/{runId} (and its events).'),
    agentId: IdString('agent'),
    userId: NullableInResponse('string'),
    roomId: NullableInResponse('string'),
    text: Type.String(),
    finishReason: FinishReason,
    usage: Type.Object(
      {
        inputTokens: Type.Integer(),
        outputTokens: Type.Integer(),
        totalTokens: Type.Integer(),
        cachedInputTokens: Type.Optional(
          Type.Integer({
            description:
              'Of `inputTokens`, those the provider read from its prompt cache (billed lower): the stable start of ' +
              'the prompt it saw in an earlier call (README, "Prompt caching"). Absent when there were none, ' +
              'or the provider does not report them.',
          }),
        ),
        costUsd: Type.Optional(
          Type.Number({
            description:
              'What the reply cost in US dollars, priced when it was made from the price table (the defaults of ' +
              'the README, "Model prices", and AGENTD_MODEL_PRICES); 0 when the model has no price (`priced` ' +
              'false). Absent on replies stored before agentd priced them.',
          }),
        ),
        priced: Type.Optional(
          Type.Boolean({
            description:
              'false when the model has no price in the table (an unknown model costs nothing and says so here).',
          }),
        ),
      },
      {
        description:
          'Token counts reported by the provider (estimated for the builtin model and for aborted replies), and ' +
          'what they cost.',
      },
    ),
    model: ModelOfReply,
    toolCalls: Type.Array(Type.Ref(ToolCallView), {
      description: 'The tools the agent ran for this reply, in order (empty when none).',
    }),
    attachments: Type.Array(Type.Ref(Attachment), {
      description:
        'Images this reply produced (made by its tools, e.g. generate_image), stored and served at their `url` ' +
        '(empty when none).',
    }),
    citations: Type.Array(CitationView, {
      description:
        "The chunks of the agent's knowledge bases its prompt held for this reply, best first (empty when none).",
    }),
    latencyMs: Type.Integer({ description: 'Milliseconds from receiving the message to the end of the reply.' }),
    approvals: Type.Optional(
      Type.Array(Type.Ref(PendingApproval), {
        description:
          'With `finishReason: approval_required`: the tool calls waiting for a decision ' +
          '(POST /v1/agents/{id}/approvals/{approvalId}); the reply goes on in a new run once all are decided.',
      }),
    ),
    createdAt: Timestamp,
  },
  { $id: 'MessageReply', title: 'MessageReply' },
);
export type MessageReplyView = Static<typeof MessageReply>;

/** The data of `message.started`. */
export type MessageStartedView = Pick<
  MessageReplyView,
  'id' | 'runId' | 'agentId' | 'userId' | 'roomId' | 'model' | 'createdAt'
>;

export const ConversationTurn = Type.Object({
  id: IdString('message'),
  agentId: IdString('agent'),
  userId: NullableInResponse('string'),
  roomId: NullableInResponse('string'),
  role: StringEnum(['user', 'agent', 'tool'], {
    description: '`tool` turns are the tools the agent ran, between a message and its answer.',
  }),
  text: Type.String({ description: 'Empty on tool turns.' }),
  finishReason: Type.Optional(FinishReason),
  tool: Type.Optional(Type.Ref(ToolCallView)),
  attachments: Type.Optional(
    Type.Array(Type.Ref(Attachment), {
      description: 'Images of the turn: those sent with a message, or those an answer produced.',
    }),
  ),
  createdAt: Timestamp,
});
export type ConversationTurnView = Static<typeof ConversationTurn>;

const conversationSelector = {
  userId: Type.Optional(
    ParticipantId(
      "Alone: the private conversation with this user. With roomId: this user's turns in the room and the answers to them.",
    ),
  ),
  roomId: Type.Optional(ParticipantId('The shared conversation of this room.')),
};

export const ListMessagesQuery = Type.Object(
  {
    ...conversationSelector,
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Turns per page, 1–100 (default 20).' }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListMessagesQueryValue = Static<typeof ListMessagesQuery>;

export const MessageList = Type.Object({
  data: Type.Array(ConversationTurn),
  pagination: Type.Object({ limit: Type.Integer(), hasMore: Type.Boolean(), nextCursor: NullableInResponse('string') }),
});
export type MessageListView = Static<typeof MessageList>;

export const ForgetConversationQuery = Type.Object(
  {
    ...conversationSelector,
    facts: Type.Optional(
      Type.Boolean({
        description:
          "Also forget what the agent remembers about the user (their facts; needs userId). The conversation's " +
          'summary is always forgotten with it.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ForgetConversationQueryValue = Static<typeof ForgetConversationQuery>;

export const ForgottenTurns = Type.Object({ deleted: Type.Integer({ description: 'Turns removed.' }) });

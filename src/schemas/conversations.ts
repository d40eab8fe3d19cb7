import { Type, type Static } from '@sinclair/typebox';
import { NullableInResponse, Timestamp } from './common.js';

/**
 * The conversations an agent knows (GET /v1/agents/{agentId}/conversations):
 * what to pass as `userId` or `roomId` to the history, memory and forget
 * routes, so a client picks instead of guessing.
 */
export const ListConversationsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Conversations per page, 1–100 (default 50).' }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListConversationsQueryValue = Static<typeof ListConversationsQuery>;

export const ConversationSummary = Type.Object(
  {
    userId: NullableInResponse('string', { description: 'The user of a private conversation; null for a room.' }),
    roomId: NullableInResponse('string', { description: 'The room of a shared conversation; null for a user.' }),
    turns: Type.Integer({
      description:
        'Stored user and agent turns. 0 for a user whose turns were forgotten while the agent still keeps facts ' +
        'about them.',
    }),
    lastActiveAt: Timestamp,
  },
  { title: 'ConversationSummary' },
);
export type ConversationSummaryView = Static<typeof ConversationSummary>;

export const ConversationList = Type.Object({
  data: Type.Array(ConversationSummary),
  pagination: Type.Object({ limit: Type.Integer(), hasMore: Type.Boolean(), nextCursor: NullableInResponse('string') }),
});
export type ConversationListView = Static<typeof ConversationList>;

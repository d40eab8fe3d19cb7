import type {
  ConversationTurnView,
  ListMessagesQueryValue,
  MessageListView,
  ToolCallViewValue,
} from '../../schemas/messages.js';
import type { AttachmentView } from '../../schemas/files.js';
import type { MessageRow } from '../../storage/repositories/messages.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { decodeTurnCursor, encodeTurnCursor, turnFilterOf } from './conversation.js';

const defaultLimit = 20;

function toTurnView(row: MessageRow): ConversationTurnView {
  return {
    id: row.id,
    agentId: row.agent_id,
    userId: row.user_id,
    roomId: row.room_id,
    role: row.role,
    text: row.text,
    ...(row.role === 'agent' && row.finish_reason !== null
      ? { finishReason: row.finish_reason as ConversationTurnView['finishReason'] }
      : {}),
    ...(row.role === 'tool' && row.tool !== null ? { tool: JSON.parse(row.tool) as ToolCallViewValue } : {}),
    ...(row.attachments != null ? { attachments: JSON.parse(row.attachments) as AttachmentView[] } : {}),
    createdAt: row.created_at,
  };
}

/** Stored turns of an agent, newest first, a keyset page at a time. */
export async function listMessages({
  ctx,
  agentId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: ListMessagesQueryValue;
}): Promise<MessageListView> {
  requireScope(ctx, 'agents:read');
  const agent = await findOwnAgent(ctx, agentId);
  const filter = turnFilterOf(query);
  const limit = query.limit ?? defaultLimit;
  const beforeId = query.cursor !== undefined ? decodeTurnCursor(query.cursor, filter) : undefined;
  const rows = await ctx.deps.repositories.messages.page({
    agentId: agent.id,
    ...filter,
    limit: limit + 1,
    ...(beforeId !== undefined ? { beforeId } : {}),
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toTurnView),
    pagination: { limit, hasMore, nextCursor: hasMore && last ? encodeTurnCursor(filter, last.id) : null },
  };
}

import { validationError } from '../../errors.js';
import type {
  ConversationListView,
  ConversationSummaryView,
  ListConversationsQueryValue,
} from '../../schemas/conversations.js';
import type { KnownConversationRow, KnownConversationsAfter } from '../../storage/repositories/messages.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';

const defaultLimit = 50;

/** A conversations cursor: the last entry of its page (base64url JSON, opaque to clients). */
function encodeCursor(row: KnownConversationRow): string {
  return Buffer.from(JSON.stringify([1, row.lastActiveAt, row.conversation]), 'utf8').toString('base64url');
}

function decodeCursor(value: string): KnownConversationsAfter {
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw validationError('/query/cursor', 'is not a cursor this server issued');
  }
  if (
    !Array.isArray(fields) ||
    fields.length !== 3 ||
    fields[0] !== 1 ||
    typeof fields[1] !== 'string' ||
    typeof fields[2] !== 'string'
  ) {
    throw validationError('/query/cursor', 'is not a cursor this server issued');
  }
  return { lastActiveAt: fields[1], conversation: fields[2] };
}

/** `user:<id>` and `room:<id>` keys (services/messages/conversation.ts) back to the ids a client sends. */
function toSummary(row: KnownConversationRow): ConversationSummaryView {
  const isRoom = row.conversation.startsWith('room:');
  const id = row.conversation.slice(row.conversation.indexOf(':') + 1);
  return {
    userId: isRoom ? null : id,
    roomId: isRoom ? id : null,
    turns: row.turns,
    lastActiveAt: row.lastActiveAt,
  };
}

/** The users and rooms an agent has talked with or keeps facts about, most recently active first. */
export async function listConversations({
  ctx,
  agentId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: ListConversationsQueryValue;
}): Promise<ConversationListView> {
  requireScope(ctx, 'agents:read');
  const after = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
  const agent = await findOwnAgent(ctx, agentId);
  const limit = query.limit ?? defaultLimit;
  const rows = await ctx.deps.repositories.messages.knownConversations(agent.id, {
    limit: limit + 1,
    ...(after !== undefined ? { after } : {}),
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toSummary),
    pagination: { limit, hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null },
  };
}

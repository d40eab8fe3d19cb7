import { validationError } from '../../errors.js';
import type { ForgetConversationQueryValue } from '../../schemas/messages.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { turnFilterOf } from './conversation.js';

/**
 * Forgets a conversation: the private one with a user, a room's, or one
 * user's turns in a room. Naming none is refused rather than read as
 * "everything" (deleting the agent is how all of it goes).
 */
export async function forgetConversation({
  ctx,
  agentId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: ForgetConversationQueryValue;
}): Promise<{ deleted: number }> {
  requireScope(ctx, 'agents:write');
  if (query.userId === undefined && query.roomId === undefined) {
    throw validationError('/query', 'must name userId or roomId (or both)');
  }
  const agent = await findOwnAgent(ctx, agentId);
  const deleted = await ctx.deps.repositories.messages.deleteTurns(agent.id, turnFilterOf(query));
  ctx.deps.logger.info({ agentId: agent.id, deleted, requestId: ctx.requestId }, 'conversation forgotten');
  return { deleted };
}

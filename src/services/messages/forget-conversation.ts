import { validationError } from '../../errors.js';
import type { ForgetConversationQueryValue } from '../../schemas/messages.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { recordAgentEvent } from '../../events/agent-events.js';
import { eventWriterOf } from '../events/event-writer.js';
import { conversationKey, turnFilterOf } from './conversation.js';

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
  if (query.facts === true && query.userId === undefined) {
    throw validationError('/query/facts', 'needs userId: facts are forgotten for one user');
  }
  const agent = await findOwnAgent(ctx, agentId);
  const { repositories } = ctx.deps;
  const conversation = conversationKey(query.userId ?? null, query.roomId ?? null) as string;
  let memoryUpdated = false;
  const deleted = await repositories.db.transaction().execute(async (transaction) => {
    // Recall's vectors of these turns go with them (on PostgreSQL by their foreign key).
    await repositories.memoryVectors?.deleteTurns(agent.id, turnFilterOf(query), transaction);
    const turns = await repositories.messages.deleteTurns(agent.id, turnFilterOf(query), transaction);
    // A summary would keep what was forgotten: it goes too, a room's as well when one user's turns leave it.
    const summaries = await repositories.memory.deleteConversation(agent.id, conversation, transaction);
    const facts =
      query.facts === true
        ? await repositories.memory.deleteFactsOfUser(agent.id, query.userId as string, transaction)
        : 0;
    if (summaries + facts > 0) {
      memoryUpdated = true;
      await recordAgentEvent(
        eventWriterOf(ctx),
        agent,
        'memory.updated',
        {
          userId: query.userId ?? null,
          roomId: query.roomId ?? null,
          summary: summaries > 0,
          facts: { added: 0, replaced: 0, removed: facts },
          source: 'api',
        },
        transaction,
      );
    }
    return turns;
  });
  if (memoryUpdated) {
    ctx.deps.webhooks.outbox.committed();
    ctx.deps.agentMetrics.memoryUpdated({ accountId: agent.accountId, agentId: agent.id });
  }
  ctx.deps.logger.info({ agentId: agent.id, deleted, requestId: ctx.requestId }, 'conversation forgotten');
  return { deleted };
}

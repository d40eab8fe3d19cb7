import { AppError, notFound } from '../../errors.js';
import { recordAgentEvent } from '../../events/agent-events.js';
import { requireScope, type ServiceContext } from '../context.js';
import { eventWriterOf } from '../events/event-writer.js';
import { pruneExpiredTrails } from '../events/prune-events.js';
import { findOwnAgent } from './get-agent.js';

/** Deletes an agent for good, with its conversations and knowledge, in one transaction. */
export async function deleteAgent({
  ctx,
  agentId,
}: {
  ctx: ServiceContext;
  agentId: string;
}): Promise<{ id: string; deleted: true }> {
  requireScope(ctx, 'agents:delete');
  const { repositories } = ctx.deps;
  await repositories.db.transaction().execute(async (transaction) => {
    const record = await findOwnAgent(ctx, agentId, transaction, true);
    if (record.deletionProtection) {
      throw new AppError(
        'deletion_protected',
        'This agent has deletionProtection enabled; set it to false with PATCH before deleting.',
      );
    }
    await repositories.memoryVectors?.deleteForAgent(record.id, transaction);
    await repositories.messages.deleteForAgent(record.id, transaction);
    await repositories.knowledge.deleteForAgent(record.id, transaction);
    await repositories.knowledgeBases.attach(record.accountId, record.id, [], transaction);
    await repositories.memory.deleteForAgent(record.id, transaction);
    await repositories.runSteps.deleteForAgent(record.id, transaction);
    await repositories.runs.deleteForAgent(record.id, transaction);
    await repositories.approvals.deleteForAgent(record.id, transaction);
    await repositories.tasks.deleteForAgent(record.id, transaction);
    await repositories.transferTotals.deleteForAgent(record.id, transaction);
    await repositories.spendTotals.deleteForAgent(record.accountId, record.id, transaction);
    await repositories.agentVersions.deleteForAgent(record.id, transaction);
    await repositories.evals.deleteForAgent(record.id, transaction);
    await ctx.deps.files.store.deleteForAgent(record.id, transaction);
    if (!(await repositories.agents.delete(record, transaction))) throw notFound('Agent');
    await recordAgentEvent(eventWriterOf(ctx), record, 'agent.deleted', { name: record.name }, transaction);
  });
  ctx.deps.webhooks.outbox.committed();
  // Once the rows are gone for good: a file store's bytes outside the database follow (a crash first leaves them to its sweep).
  await ctx.deps.files.store.removeDeleted(agentId);
  await ctx.deps.plugins.toolsets.forget(agentId);
  await pruneExpiredTrails(ctx);
  ctx.deps.logger.info({ agentId, accountId: ctx.actor.accountId, requestId: ctx.requestId }, 'agent deleted');
  return { id: agentId, deleted: true };
}

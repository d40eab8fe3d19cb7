import { notFound } from '../../errors.js';
import { requireScope, type ServiceContext } from '../context.js';

/** Deletes a task; its runs stay readable in the agent's run list. A run in progress finishes. */
export async function deleteTask({
  ctx,
  agentId,
  taskId,
}: {
  ctx: ServiceContext;
  agentId: string;
  taskId: string;
}): Promise<{ id: string; deleted: true }> {
  requireScope(ctx, 'agents:write');
  if (!(await ctx.deps.repositories.tasks.delete(ctx.actor.accountId, agentId, taskId))) throw notFound('Task');
  ctx.deps.logger.info({ agentId, taskId, requestId: ctx.requestId }, 'task deleted');
  return { id: taskId, deleted: true };
}

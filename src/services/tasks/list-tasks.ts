import type { ListTasksQueryValue, TaskListView, TaskView } from '../../schemas/tasks.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { decodeLastIdCursor, encodeLastIdCursor } from '../last-id-cursor.js';
import { findOwnTask, toTaskView } from './task-records.js';

const defaultLimit = 20;

/** The agent's tasks, newest first, in cursor pages. */
export async function listTasks({
  ctx,
  agentId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: ListTasksQueryValue;
}): Promise<TaskListView> {
  requireScope(ctx, 'agents:read');
  const limit = query.limit ?? defaultLimit;
  const beforeId = query.cursor !== undefined ? decodeLastIdCursor('task', query.cursor) : undefined;
  const agent = await findOwnAgent(ctx, agentId);
  const rows = await ctx.deps.repositories.tasks.page({
    accountId: agent.accountId,
    agentId: agent.id,
    limit: limit + 1,
    ...(beforeId !== undefined ? { beforeId } : {}),
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toTaskView),
    pagination: { limit, hasMore, nextCursor: hasMore && last ? encodeLastIdCursor(last.id) : null },
  };
}

export async function getTask({
  ctx,
  agentId,
  taskId,
}: {
  ctx: ServiceContext;
  agentId: string;
  taskId: string;
}): Promise<TaskView> {
  requireScope(ctx, 'agents:read');
  return toTaskView(await findOwnTask(ctx, agentId, taskId));
}

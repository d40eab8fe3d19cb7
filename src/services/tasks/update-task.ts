import { isoTime } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { TaskOutputValue, TaskView, UpdateTaskInput } from '../../schemas/tasks.js';
import type { TaskRow } from '../../storage/repositories/tasks.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import type { TaskLimits } from './create-task.js';
import { firstDueAt, parseSchedule, scheduleValue, storedSchedule } from './schedule.js';
import { checkOutput, toTaskView } from './task-records.js';

/**
 * Changes a task: fields given replace the stored ones. A new schedule, or
 * enabling a disabled (or paused) task, sets the next due time from now, and
 * enabling forgets the failures that paused it; disabling clears the due time.
 */
export async function updateTask({
  ctx,
  agentId,
  taskId,
  patch,
  limits,
}: {
  ctx: ServiceContext;
  agentId: string;
  taskId: string;
  patch: UpdateTaskInput;
  limits: TaskLimits;
}): Promise<TaskView> {
  requireScope(ctx, 'agents:write');
  const schedule =
    patch.schedule !== undefined ? parseSchedule(patch.schedule, limits.minIntervalSeconds, '/body/schedule') : null;
  const { repositories, clock } = ctx.deps;
  const agent = await findOwnAgent(ctx, agentId);
  if (patch.output !== undefined) checkOutput(ctx, agent, patch.output, '/body/output');
  const updated = await repositories.db.transaction().execute(async (transaction) => {
    const current = await repositories.tasks.find(ctx.actor.accountId, agent.id, taskId, transaction);
    if (current === null) throw notFound('Task');
    const now = clock.now();
    const wasEnabled = current.enabled === 1;
    const enabled = patch.enabled ?? wasEnabled;
    const next: TaskRow = {
      ...current,
      name: patch.name ?? current.name,
      instructions: patch.instructions ?? current.instructions,
      schedule: schedule !== null ? JSON.stringify(scheduleValue(schedule)) : current.schedule,
      output: patch.output !== undefined ? JSON.stringify(patch.output satisfies TaskOutputValue) : current.output,
      enabled: enabled ? 1 : 0,
    };
    if (!enabled) {
      next.next_due_at = null;
      // The reason is the service's; a task its owner turned off keeps none.
      if (wasEnabled) next.paused_reason = null;
    } else if (!wasEnabled || schedule !== null) {
      const due = firstDueAt(schedule ?? storedSchedule(current.schedule), now);
      next.next_due_at = due === null ? null : isoTime(due);
      if (!wasEnabled) {
        next.paused_reason = null;
        next.consecutive_failures = 0;
      }
    }
    const at = isoTime(now);
    next.updated_at = at > current.updated_at ? at : current.updated_at;
    if (!(await repositories.tasks.update(next, transaction))) throw notFound('Task');
    return next;
  });
  return toTaskView(updated);
}

import { isoTime } from '../../clock.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { CreateTaskInput, TaskView } from '../../schemas/tasks.js';
import type { TaskRow } from '../../storage/repositories/tasks.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { firstDueAt, parseSchedule, scheduleValue } from './schedule.js';
import { checkOutput, toTaskView } from './task-records.js';

/** What the operator decides about tasks that the API enforces. */
export interface TaskLimits {
  /** The shortest `everySeconds` (AGENTD_TASK_MIN_INTERVAL_SECONDS). */
  minIntervalSeconds: number;
}

/** Tasks one agent may have: each is claimed and run on its own, so their number is bounded like other lists. */
export const maxTasksPerAgent = 100;

/** A new task of the caller's agent; its first due time follows from its schedule and now. */
export async function createTask({
  ctx,
  agentId,
  input,
  limits,
}: {
  ctx: ServiceContext;
  agentId: string;
  input: CreateTaskInput;
  limits: TaskLimits;
}): Promise<TaskView> {
  requireScope(ctx, 'agents:write');
  const schedule = parseSchedule(input.schedule, limits.minIntervalSeconds, '/body/schedule');
  const agent = await findOwnAgent(ctx, agentId);
  const output = input.output ?? { type: 'none' as const };
  checkOutput(ctx, agent, output, '/body/output');
  const { tasks } = ctx.deps.repositories;
  if ((await tasks.countForAgent(agent.id)) >= maxTasksPerAgent) {
    throw new AppError(
      'conflict',
      `Agent ${agent.id} already has ${maxTasksPerAgent} tasks, the most it may have; delete one first.`,
    );
  }
  const now = ctx.deps.clock.now();
  const enabled = input.enabled ?? true;
  const due = enabled ? firstDueAt(schedule, now) : null;
  const row: TaskRow = {
    id: newId('task'),
    account_id: agent.accountId,
    agent_id: agent.id,
    name: input.name,
    instructions: input.instructions,
    schedule: JSON.stringify(scheduleValue(schedule)),
    output: JSON.stringify(output),
    enabled: enabled ? 1 : 0,
    paused_reason: null,
    next_due_at: due === null ? null : isoTime(due),
    last_run_id: null,
    last_run_at: null,
    last_run_status: null,
    last_error: null,
    consecutive_failures: 0,
    created_at: isoTime(now),
    updated_at: isoTime(now),
  };
  await tasks.insert(row);
  ctx.deps.logger.info({ agentId: agent.id, taskId: row.id, requestId: ctx.requestId }, 'task created');
  return toTaskView(row);
}

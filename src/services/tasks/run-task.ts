import { isoTime } from '../../clock.js';
import { newId } from '../../ids.js';
import type { RunView } from '../../schemas/runs.js';
import type { TaskOutputValue } from '../../schemas/tasks.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { ensureAnswering } from '../messages/agent-availability.js';
import { runView } from '../runs/runs.js';
import type { TaskScheduler } from './scheduler.js';
import { findOwnTask } from './task-records.js';

/**
 * Runs a task now, outside its schedule (its due times are unchanged): a
 * run with no due time, produced in the background on this instance like a
 * due one, output included. A disabled or paused task runs too (to try it
 * before enabling it); an agent that does not answer now is a 503.
 */
export async function runTaskNow({
  ctx,
  agentId,
  taskId,
  scheduler,
}: {
  ctx: ServiceContext;
  agentId: string;
  taskId: string;
  scheduler: TaskScheduler;
}): Promise<RunView> {
  requireScope(ctx, 'agents:write');
  const agent = await findOwnAgent(ctx, agentId);
  const task = await findOwnTask(ctx, agent.id, taskId);
  await ensureAnswering(ctx, agent);
  const now = isoTime(ctx.deps.clock.now());
  const runId = newId('run');
  const row = await ctx.deps.repositories.runs.createQueued({
    id: runId,
    accountId: agent.accountId,
    agentId: agent.id,
    trigger: 'task',
    taskId: task.id,
    userId: null,
    roomId: `task:${task.id}`,
    input: task.instructions,
    // This instance produces it: should it stop before the run begins, the sweep ends the run.
    instanceId: ctx.deps.runs.instanceId,
    createdAt: now,
    approvalId: null,
  });
  scheduler.launch({
    runId,
    accountId: agent.accountId,
    agentId: agent.id,
    taskId: task.id,
    name: task.name,
    instructions: task.instructions,
    output: JSON.parse(task.output) as TaskOutputValue,
    dueAt: null,
  });
  ctx.deps.logger.info({ agentId: agent.id, taskId: task.id, runId, requestId: ctx.requestId }, 'task run started');
  return runView(ctx, row);
}

import { notFound, validationError } from '../../errors.js';
import { outputPlatforms, type TaskOutputValue, type TaskView } from '../../schemas/tasks.js';
import type { RunStatus } from '../../schemas/runs.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import type { TaskRow } from '../../storage/repositories/tasks.js';
import type { ServiceContext } from '../context.js';
import { scheduleValue, storedSchedule } from './schedule.js';

/** What clients see of a task. */
export function toTaskView(row: TaskRow): TaskView {
  return {
    id: row.id,
    agentId: row.agent_id,
    name: row.name,
    instructions: row.instructions,
    schedule: scheduleValue(storedSchedule(row.schedule)),
    output: JSON.parse(row.output) as TaskOutputValue,
    enabled: row.enabled === 1,
    pausedReason: row.paused_reason,
    nextDueAt: row.next_due_at,
    lastRunAt: row.last_run_at,
    lastRunStatus: row.last_run_status as RunStatus | null,
    lastError: row.last_error,
    consecutiveFailures: row.consecutive_failures,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The caller's task of the caller's agent, or 404 (another account's answers like a missing one). */
export async function findOwnTask(ctx: ServiceContext, agentId: string, taskId: string): Promise<TaskRow> {
  const row = await ctx.deps.repositories.tasks.find(ctx.actor.accountId, agentId, taskId);
  if (row === null) throw notFound('Task');
  return row;
}

/**
 * A platform output must name a platform the agent has, of a type that can
 * post on its own (the connector's `postText`); checked when the task is
 * written, and again when a run's reply is posted (the platform may be gone).
 */
export function checkOutput(ctx: ServiceContext, agent: AgentRecord, output: TaskOutputValue, pointer: string): void {
  if (output.type !== 'platform') return;
  const entry = agent.profile.platforms.find((platform) => platform.type === output.platform);
  if (entry === undefined) {
    throw validationError(
      `${pointer}/platform`,
      `names a platform the agent does not have (${agent.profile.platforms.map((platform) => platform.type).join(', ') || 'none'}); add it to the agent first`,
    );
  }
  const definition = ctx.deps.platforms.catalog.definitionOf(output.platform);
  if (definition?.postText === undefined || !(outputPlatforms as readonly string[]).includes(output.platform)) {
    throw validationError(`${pointer}/platform`, `cannot post on its own; use one of ${outputPlatforms.join(', ')}`);
  }
}

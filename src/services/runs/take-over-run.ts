import type { ServiceDeps } from '../context.js';
import type { RunRow } from '../../storage/repositories/runs.js';
import type { TaskOutputValue } from '../../schemas/tasks.js';
import type { TaskScheduler } from '../tasks/scheduler.js';
import type { ApprovalRuntime } from '../approvals/approval-runtime.js';
import { produceRun, type QueuedRun } from './produce-run.js';

/** Where a claimed run goes on: its task's executor, the approvals' runtime, or the runs' producer. */
export interface TakeOverTargets {
  deps: ServiceDeps;
  tasks: TaskScheduler;
  approvals: ApprovalRuntime;
}

/**
 * Continues a run this instance claimed from a stopped one (RunRuntime's
 * sweep): a task's due time through the task executor (so the task records
 * its outcome and delivers its output), a reply resumed after approvals
 * through the approvals' runtime (so the answer goes back to its chat), any
 * other run through the runs' producer. Resolves when the run has ended.
 */
export async function takeOverRun({ deps, tasks, approvals }: TakeOverTargets, row: RunRow): Promise<void> {
  const { repositories } = deps;
  if (row.trigger === 'task' && row.task_id !== null) {
    const task = await repositories.tasks.findById(row.task_id);
    if (task !== null) {
      await tasks.run({
        runId: row.id,
        accountId: row.account_id,
        agentId: row.agent_id,
        taskId: task.id,
        name: task.name,
        instructions: row.input,
        output: JSON.parse(task.output) as TaskOutputValue,
        dueAt: row.due_at,
        takeover: true,
      });
      return;
    }
  }
  if (row.trigger === 'approval' && row.approval_id !== null) {
    const approval = await repositories.approvals.findById(row.approval_id);
    if (approval !== undefined) {
      await approvals.run({
        runId: row.id,
        accountId: row.account_id,
        agentId: row.agent_id,
        pausedRunId: approval.run_id,
        takeover: true,
      });
      return;
    }
  }
  const request = row.request === null ? {} : (JSON.parse(row.request) as { context?: Record<string, unknown> });
  const run: QueuedRun = {
    id: row.id,
    accountId: row.account_id,
    agentId: row.agent_id,
    trigger: row.trigger as QueuedRun['trigger'],
    taskId: row.task_id,
    dueAt: row.due_at,
    input: {
      text: row.input,
      ...(row.user_id !== null ? { userId: row.user_id } : {}),
      ...(row.room_id !== null ? { roomId: row.room_id } : {}),
      ...(request.context !== undefined ? { context: request.context } : {}),
    },
    takeover: true,
  };
  await produceRun(deps, run);
}

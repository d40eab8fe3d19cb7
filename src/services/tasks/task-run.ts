import { isoTime } from '../../clock.js';
import { recordAgentEvent } from '../../events/agent-events.js';
import { newId } from '../../ids.js';
import { failuresBeforePause, type TaskOutputValue } from '../../schemas/tasks.js';
import type { ServiceDeps } from '../context.js';
import type { PlatformRuntime } from '../platforms/platform-runtime.js';
import { produceRun } from '../runs/produce-run.js';
import type { TaskMetrics } from './task-metrics.js';
import { postToPlatform } from './task-output.js';

/** A run of a task, its row inserted (`queued`): what the executor produces. */
export interface TaskRunOrder {
  runId: string;
  accountId: string;
  agentId: string;
  taskId: string;
  name: string;
  instructions: string;
  output: TaskOutputValue;
  /** The due time it is for; null for a run started with POST …/run. */
  dueAt: string | null;
  /** A run taken over from a stopped instance: it goes on from its journal. */
  takeover?: boolean;
}

export interface TaskRunDeps {
  deps: ServiceDeps;
  platforms: PlatformRuntime;
  metrics: TaskMetrics;
}

export function pauseReasonFor(failures: number, lastError: string | null): string {
  return `Paused after ${failures} failed runs in a row${lastError ? `; the last: ${lastError}` : ''}. PATCH enabled: true to resume.`;
}

/**
 * Produces one run of a task, then delivers its output and records the
 * outcome on the task: its last status, the failures in a row and, at the
 * third, the pause (agent trail, `task.paused` webhook). The webhook events of
 * the outcome are written in the same transaction as the task's new state.
 * Never throws.
 */
export async function executeTaskRun(
  { deps, platforms, metrics }: TaskRunDeps,
  order: TaskRunOrder,
  signal: AbortSignal,
): Promise<void> {
  const { logger, clock, repositories } = deps;
  const produced = await produceRun(
    deps,
    {
      id: order.runId,
      accountId: order.accountId,
      agentId: order.agentId,
      trigger: 'task',
      taskId: order.taskId,
      dueAt: order.dueAt,
      input: {
        text: order.instructions,
        roomId: `task:${order.taskId}`,
        context: { task: { id: order.taskId, name: order.name, dueAt: order.dueAt } },
      },
      ...(order.takeover === true ? { takeover: true } : {}),
    },
    signal,
  );
  let failed = produced.status === 'failed';
  // As in message.failed: a code of the error catalog, its status, and a detail the owner can act on.
  let error: { code: string; status: number; detail: string } | null =
    produced.error === null
      ? null
      : { code: produced.error.code, status: produced.error.status, detail: produced.error.detail };
  const text = produced.reply?.text ?? '';
  if (produced.status === 'completed' && order.output.type === 'platform') {
    try {
      if (text.trim() !== '') await postToPlatform(deps, platforms, order, order.output, text, signal);
    } catch (postError) {
      failed = true;
      const reason = postError instanceof Error ? postError.message : String(postError);
      error = {
        code: 'service_unavailable',
        status: 503,
        detail: `The reply could not be posted to ${order.output.platform} ${order.output.target}: ${reason}`,
      };
    }
  }
  metrics.runs.inc({ outcome: produced.status });
  const at = isoTime(clock.now());
  try {
    const paused = await repositories.db.transaction().execute(async (transaction) => {
      const recorded = await repositories.tasks.recordOutcome(
        order.taskId,
        {
          runId: order.runId,
          at,
          status: produced.status,
          error: failed ? (error?.detail ?? 'The run failed.') : null,
          failed,
          pauseAfter: failuresBeforePause,
          pauseReason: (failures) => pauseReasonFor(failures, error?.detail ?? null),
        },
        transaction,
      );
      if (recorded === null) return false;
      const { task } = recorded;
      const { outbox } = deps.webhooks;
      const about = {
        agentId: order.agentId,
        taskId: order.taskId,
        name: task.name,
        runId: order.runId,
        dueAt: order.dueAt,
      };
      if (failed) {
        await outbox.enqueue(
          {
            id: newId('event'),
            accountId: order.accountId,
            type: 'task.failed',
            data: { ...about, error, consecutiveFailures: task.consecutive_failures },
            occurredAt: at,
          },
          transaction,
        );
      } else if (produced.status === 'completed' && order.output.type === 'webhook' && produced.reply !== null) {
        await outbox.enqueue(
          {
            id: newId('event'),
            accountId: order.accountId,
            type: 'task.completed',
            // `completedAt` is the deprecated name of `finishedAt`, the run's own name for this time.
            data: { ...about, messageId: produced.reply.id, text, finishedAt: at, completedAt: at },
            occurredAt: at,
          },
          transaction,
        );
      }
      if (recorded.paused) {
        const writer = { events: repositories.agentEvents, clock, actor: 'service' as const, requestId: null, outbox };
        await recordAgentEvent(
          writer,
          { id: order.agentId, accountId: order.accountId },
          'task.paused',
          {
            taskId: order.taskId,
            name: task.name,
            reason: task.paused_reason,
            consecutiveFailures: task.consecutive_failures,
          },
          transaction,
        );
      }
      return recorded.paused;
    });
    deps.webhooks.outbox.committed();
    if (paused) {
      metrics.paused.inc();
      logger.warn(
        { agentId: order.agentId, taskId: order.taskId, runId: order.runId },
        'task paused after failed runs',
      );
    }
  } catch (recordError) {
    logger.error(
      { agentId: order.agentId, taskId: order.taskId, runId: order.runId, error: (recordError as Error).message },
      'the outcome of a task run was not recorded',
    );
  }
  if (failed) {
    logger.warn(
      { agentId: order.agentId, taskId: order.taskId, runId: order.runId, error: error?.detail },
      'task run failed',
    );
  }
}

import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { Run } from '../../schemas/runs.js';
import { TaskIdParams } from '../../schemas/tasks.js';
import type { TaskScheduler } from '../../services/tasks/scheduler.js';
import { runTaskNow } from '../../services/tasks/run-task.js';

export function registerRunTask(app: App, scheduler: TaskScheduler): void {
  app.post(
    '/v1/agents/:agentId/tasks/:taskId/run',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'manageTasks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'runTask',
        tags: ['tasks'],
        summary: 'Run a task now',
        description:
          'Starts a run of the task now, outside its schedule (its due times are unchanged; `dueAt` is null), ' +
          'produced in the background with its output like a due run; also for a disabled or paused task. ' +
          'Answers `202` with the queued run and its `Location`; follow it with GET …/runs/{runId} or its events. ' +
          'Scope: `agents:write`.',
        params: TaskIdParams,
        response: { 202: Type.Ref(Run), ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      const run = await runTaskNow({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        taskId: request.params.taskId,
        scheduler,
      });
      return reply.status(202).header('location', `/v1/agents/${run.agentId}/runs/${run.id}`).send(run);
    },
  );
}

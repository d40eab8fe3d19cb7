import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { TaskIdParams, TaskSchema, UpdateTaskBody } from '../../schemas/tasks.js';
import type { TaskLimits } from '../../services/tasks/create-task.js';
import { updateTask } from '../../services/tasks/update-task.js';

export function registerUpdateTask(app: App, limits: TaskLimits): void {
  app.patch(
    '/v1/agents/:agentId/tasks/:taskId',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'manageTasks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'updateTask',
        tags: ['tasks'],
        summary: 'Change a task',
        description:
          'Fields sent replace the stored ones. A new `schedule` sets the next due time from now; `enabled: true` ' +
          'resumes a disabled or paused task (forgetting its failures); `enabled: false` stops it. ' +
          'Scope: `agents:write`.',
        params: TaskIdParams,
        body: UpdateTaskBody,
        response: { 200: Type.Ref(TaskSchema), ...problemResponses(400, 404, 413, 415) },
      },
    },
    async (request) =>
      updateTask({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        taskId: request.params.taskId,
        patch: request.body,
        limits,
      }),
  );
}

import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { DeletedTask, TaskIdParams } from '../../schemas/tasks.js';
import { deleteTask } from '../../services/tasks/delete-task.js';

export function registerDeleteTask(app: App): void {
  app.delete(
    '/v1/agents/:agentId/tasks/:taskId',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'manageTasks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'deleteTask',
        tags: ['tasks'],
        summary: 'Delete a task',
        description:
          'The task has no more due times; a run in progress finishes, and its runs stay in the run list. ' +
          'Scope: `agents:write`.',
        params: TaskIdParams,
        response: { 200: DeletedTask, ...problemResponses(404) },
      },
    },
    async (request) =>
      deleteTask({ ctx: contextOf(request), agentId: request.params.agentId, taskId: request.params.taskId }),
  );
}

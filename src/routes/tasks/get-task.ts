import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { TaskIdParams, TaskSchema } from '../../schemas/tasks.js';
import { getTask } from '../../services/tasks/list-tasks.js';

export function registerGetTask(app: App): void {
  app.get(
    '/v1/agents/:agentId/tasks/:taskId',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'manageTasks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getTask',
        tags: ['tasks'],
        summary: 'Get a task',
        description:
          'The task, its next due time, and its last run: when it ended, its status, why it failed, the failures ' +
          'in a row and, when the service paused it, `pausedReason`. Its runs: GET /v1/agents/{agentId}/runs?taskId=' +
          '{taskId}. Scope: `agents:read`.',
        params: TaskIdParams,
        response: { 200: Type.Ref(TaskSchema), ...problemResponses(404) },
      },
    },
    async (request) =>
      getTask({ ctx: contextOf(request), agentId: request.params.agentId, taskId: request.params.taskId }),
  );
}

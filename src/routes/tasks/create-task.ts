import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { CreateTaskBody, TaskSchema } from '../../schemas/tasks.js';
import { createTask, type TaskLimits } from '../../services/tasks/create-task.js';

export function registerCreateTask(app: App, limits: TaskLimits): void {
  app.post(
    '/v1/agents/:agentId/tasks',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'manageTasks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'createTask',
        tags: ['tasks'],
        summary: 'Give an agent a task on a schedule',
        description:
          'At each due time of `schedule` (`{ cron, timezone }`, `{ everySeconds }` or `{ at }`), the agent answers ' +
          '`instructions` as a background run (trigger `task`), once over every instance, and its reply goes to ' +
          '`output`. Tasks of an agent that is not `active` do not run. A task whose last 3 runs failed is paused. ' +
          'At most 100 tasks per agent. Scope: `agents:write`.',
        params: AgentIdParams,
        body: CreateTaskBody,
        response: { 201: Type.Ref(TaskSchema), ...problemResponses(400, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const task = await createTask({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        input: request.body,
        limits,
      });
      return reply.status(201).header('location', `/v1/agents/${task.agentId}/tasks/${task.id}`).send(task);
    },
  );
}

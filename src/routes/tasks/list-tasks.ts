import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { ListTasksQuery, TaskList } from '../../schemas/tasks.js';
import { listTasks } from '../../services/tasks/list-tasks.js';

export function registerListTasks(app: App): void {
  app.get(
    '/v1/agents/:agentId/tasks',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'manageTasks', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listTasks',
        tags: ['tasks'],
        summary: "List an agent's tasks",
        description:
          "The agent's tasks, newest first, with their next due time and how their last run went. Follow " +
          '`nextCursor` for more. Scope: `agents:read`.',
        params: AgentIdParams,
        querystring: ListTasksQuery,
        response: { 200: TaskList, ...problemResponses(400, 404) },
      },
    },
    async (request) => listTasks({ ctx: contextOf(request), agentId: request.params.agentId, query: request.query }),
  );
}

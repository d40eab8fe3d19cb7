import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { ListRunsQuery, RunList } from '../../schemas/runs.js';
import { listRuns } from '../../services/runs/runs.js';

export function registerListRuns(app: App): void {
  app.get(
    '/v1/agents/:agentId/runs',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readRuns', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listRuns',
        tags: ['runs'],
        summary: "List an agent's runs",
        description:
          'Every reply is a run, whoever started it: a message (`trigger: message`), a task (`task`), a platform ' +
          '(`platform`) or the OpenAI-compatible door (`door`). Newest first; filter by `status`, `trigger` or ' +
          '`taskId` (`task`: its deprecated former name), and follow `nextCursor` for older runs. A reply still ' +
          "waiting for its model's first word is listed as `running` within 50 ms of its message. Scope: `agents:read`.",
        params: AgentIdParams,
        querystring: ListRunsQuery,
        response: { 200: RunList, ...problemResponses(400, 404) },
      },
    },
    async (request) => listRuns({ ctx: contextOf(request), agentId: request.params.agentId, query: request.query }),
  );
}

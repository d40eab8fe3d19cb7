import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { updateMemory } from '../../services/memory/update-memory.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { MemoryQuery, MemoryView, UpdateMemoryBody } from '../../schemas/memory.js';

export function registerUpdateMemory(app: App): void {
  app.patch(
    '/v1/agents/:agentId/memory',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'updateAgent', rateLimitPer: 'account' } },
      schema: {
        operationId: 'updateMemory',
        tags: ['agents'],
        summary: 'Correct what an agent remembers',
        description:
          "Replaces (or with null clears) the conversation's summary and edits the user's facts, all or nothing; the " +
          'next prompt carries the result. Fact edits need `userId`. Answers the memory as it now is. Counted ' +
          'against the updateAgent limit. Scope: `agents:write`.',
        params: AgentIdParams,
        querystring: MemoryQuery,
        body: UpdateMemoryBody,
        response: { 200: MemoryView, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      updateMemory({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        query: request.query,
        body: request.body,
      }),
  );
}

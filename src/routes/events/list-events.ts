import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { listAgentEvents } from '../../services/events/list-agent-events.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { EventList, ListEventsQuery } from '../../schemas/events.js';

export function registerListEvents(app: App): void {
  app.get(
    '/v1/agents/:agentId/events',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'listEvents', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listAgentEvents',
        tags: ['agents'],
        summary: "Read an agent's event trail",
        description:
          'The lifecycle and audit trail of the agent, newest first: created, updated (which fields, never secret ' +
          'values), status changes with their reason and who made them, deleted. The trail of a deleted agent stays ' +
          'readable for AGENTD_EVENT_RETENTION_DAYS (30) after the deletion. Follow `nextCursor` for older events. ' +
          'Scope: `agents:read`.',
        params: AgentIdParams,
        querystring: ListEventsQuery,
        response: { 200: EventList, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      listAgentEvents({ ctx: contextOf(request), agentId: request.params.agentId, query: request.query }),
  );
}

import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { listEvents } from '../../services/events/list-events.js';
import { problemResponses } from '../../schemas/common.js';
import { EventList, ListAccountEventsQuery } from '../../schemas/events.js';

export function registerListAccountEvents(app: App): void {
  app.get(
    '/v1/events',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'listEvents', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listEvents',
        tags: ['agents'],
        summary: "Read the account's event trail",
        description:
          'The events of every agent of the account, newest first, in the shape and pages of ' +
          '`GET /v1/agents/{agentId}/events`: narrow them to one agent with `agentId` (an id that is not one of ' +
          "the account's agents gives an empty page) and to one kind with `type`. Follow `nextCursor` for older " +
          'events, with the same filters. Scope: `agents:read`.',
        querystring: ListAccountEventsQuery,
        response: { 200: EventList, ...problemResponses(400) },
      },
    },
    async (request) => listEvents({ ctx: contextOf(request), query: request.query }),
  );
}

import { request } from '../../api.js';
import type { operations } from '../../../../src/client/openapi.js';

export type EventPage = operations['listEvents']['responses'][200]['content']['application/json'];
export type AgentEvent = EventPage['data'][number];
export type EventType = AgentEvent['type'];

/** Every kind of event the trail holds, for the kind filter; the compiler checks it against the API's list. */
export const eventTypes = [
  'agent.created',
  'agent.updated',
  'agent.status_changed',
  'agent.deleted',
  'agent.budget_exceeded',
  'connector.started',
  'connector.stopped',
  'connector.failed',
  'connector.received',
  'connector.posted',
  'memory.updated',
  'run.completed',
  'run.failed',
  'run.cancelled',
  'run.waiting',
  'task.paused',
  'tool.transfer',
] as const satisfies readonly EventType[];
// A kind the API adds and this list lacks fails the type check here.
const everyTypeListed: Exclude<EventType, (typeof eventTypes)[number]> extends never ? true : false = true;
void everyTypeListed;

export interface EventFilter {
  type: EventType | '';
  agentId: string;
}

export const eventPageSize = 20;

/** GET /v1/events: one page of the account's events, newest first, narrowed by the filter. */
export function listEvents(filter: EventFilter, cursor: string | null, signal?: AbortSignal): Promise<EventPage> {
  return request<EventPage>('GET', '/v1/events', {
    query: {
      limit: eventPageSize,
      type: filter.type || undefined,
      agentId: filter.agentId || undefined,
      cursor: cursor ?? undefined,
    },
    signal,
  });
}

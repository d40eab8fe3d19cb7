import type { EventListView, ListAccountEventsQueryValue } from '../../schemas/events.js';
import { requireScope, type ServiceContext } from '../context.js';
import { pageOfEvents } from './list-agent-events.js';

/**
 * The events of every agent of the account, newest first, optionally of one
 * agent or one type. An agent filter that names no agent of the account is an
 * empty page, as a filter on a collection is (the per-agent route answers 404).
 * Trails of agents deleted longer ago than the retention are removed by the
 * prune, as they are from the per-agent route.
 */
export async function listEvents({
  ctx,
  query,
}: {
  ctx: ServiceContext;
  query: ListAccountEventsQueryValue;
}): Promise<EventListView> {
  requireScope(ctx, 'agents:read');
  return pageOfEvents(ctx, query);
}

import { notFound } from '../../errors.js';
import type { AgentEventView, EventListView, ListEventsQueryValue } from '../../schemas/events.js';
import type { AgentEventRecord, AgentEventType } from '../../storage/repositories/agent-events.js';
import { requireScope, type ServiceContext } from '../context.js';
import { retentionCutoff } from './prune-events.js';
import { decodeLastIdCursor, encodeLastIdCursor } from '../last-id-cursor.js';

const defaultLimit = 20;

function toView(event: AgentEventRecord): AgentEventView {
  return {
    id: event.id,
    agentId: event.agentId,
    type: event.type,
    data: event.data,
    actor: event.actor,
    requestId: event.requestId,
    createdAt: event.createdAt,
  };
}

/**
 * The trail of the account's agent, newest first. The trail of a deleted
 * agent stays readable by its account for the retention period after the
 * deletion (AGENTD_EVENT_RETENTION_DAYS), then answers 404 like any unknown
 * agent, whether or not the prune has removed its rows yet.
 */
async function ensureTrailVisible(ctx: ServiceContext, agentId: string): Promise<void> {
  const { agents, agentEvents } = ctx.deps.repositories;
  if ((await agents.find(ctx.actor.accountId, agentId)) !== null) return;
  const deletedAt = await agentEvents.deletedAt(ctx.actor.accountId, agentId);
  if (deletedAt === null || deletedAt < retentionCutoff(ctx)) throw notFound('Agent');
}

export async function listAgentEvents({
  ctx,
  agentId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: ListEventsQueryValue;
}): Promise<EventListView> {
  requireScope(ctx, 'agents:read');
  await ensureTrailVisible(ctx, agentId);
  return pageOfEvents(ctx, { ...query, agentId });
}

/**
 * One page of the account's events, newest first, after the cursor's event:
 * one agent's trail or every agent's, of one type or all. Both routes page
 * through here, so their cursors and shapes are the same.
 */
export async function pageOfEvents(
  ctx: ServiceContext,
  query: ListEventsQueryValue & { agentId?: string; type?: AgentEventType },
): Promise<EventListView> {
  const limit = query.limit ?? defaultLimit;
  const beforeId = query.cursor !== undefined ? decodeLastIdCursor('event', query.cursor) : undefined;
  const events = await ctx.deps.repositories.agentEvents.page({
    accountId: ctx.actor.accountId,
    limit: limit + 1,
    ...(query.agentId !== undefined ? { agentId: query.agentId } : {}),
    ...(query.type !== undefined ? { type: query.type } : {}),
    ...(beforeId !== undefined ? { beforeId } : {}),
  });
  const hasMore = events.length > limit;
  const page = events.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toView),
    pagination: { limit, hasMore, nextCursor: hasMore && last ? encodeLastIdCursor(last.id) : null },
  };
}

import { notFound, validationError } from '../../errors.js';
import { isId } from '../../ids.js';
import type { AgentEventView, EventListView, ListEventsQueryValue } from '../../schemas/events.js';
import type { AgentEventRecord } from '../../storage/repositories/agent-events.js';
import { requireScope, type ServiceContext } from '../context.js';
import { retentionCutoff } from './prune-events.js';

const defaultLimit = 20;

/** Opaque to clients (base64url JSON): the id of the last event of the page. */
function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify([1, lastId]), 'utf8').toString('base64url');
}

function decodeCursor(value: string): string {
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    fields = null;
  }
  if (Array.isArray(fields) && fields.length === 2 && fields[0] === 1 && typeof fields[1] === 'string') {
    if (isId('event', fields[1])) return fields[1];
  }
  throw validationError('/query/cursor', 'is not a cursor this server issued');
}

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
  const limit = query.limit ?? defaultLimit;
  const beforeId = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
  const events = await ctx.deps.repositories.agentEvents.page({
    accountId: ctx.actor.accountId,
    agentId,
    limit: limit + 1,
    ...(beforeId !== undefined ? { beforeId } : {}),
  });
  const hasMore = events.length > limit;
  const page = events.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toView),
    pagination: { limit, hasMore, nextCursor: hasMore && last ? encodeCursor(last.id) : null },
  };
}

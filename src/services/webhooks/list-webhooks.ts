import type { ListWebhooksQueryValue, WebhookListView } from '../../schemas/webhooks.js';
import { requireScope, type ServiceContext } from '../context.js';
import { decodePagedCursor, encodePagedCursor } from '../last-id-cursor.js';
import { toWebhookView } from './webhook-records.js';

const defaultLimit = 20;

/** The account's webhooks, newest first, by page number or by cursor (as agents are listed). */
export async function listWebhooks({
  ctx,
  query,
}: {
  ctx: ServiceContext;
  query: ListWebhooksQueryValue;
}): Promise<WebhookListView> {
  requireScope(ctx, 'agents:read');
  const { webhooks } = ctx.deps.repositories;
  const accountId = ctx.actor.accountId;
  const limit = query.limit ?? defaultLimit;
  const cursor = query.cursor !== undefined ? decodePagedCursor('webhook', query.cursor, 1) : null;
  const page = cursor?.page ?? query.page ?? 1;
  const total = await webhooks.count(accountId);
  const fetched = await webhooks.page(
    cursor !== null
      ? { accountId, limit: limit + 1, beforeId: cursor.lastId }
      : { accountId, limit: limit + 1, offset: (page - 1) * limit },
  );
  const hasMore = fetched.length > limit;
  const rows = fetched.slice(0, limit);
  const last = rows.at(-1);
  return {
    data: rows.map(toWebhookView),
    pagination: {
      page,
      limit,
      total,
      totalPages: Math.ceil(total / limit),
      hasMore,
      nextCursor: hasMore && last ? encodePagedCursor(last.id, page + 1) : null,
    },
  };
}

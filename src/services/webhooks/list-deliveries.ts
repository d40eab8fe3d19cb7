import type { DeliveryListView, ListDeliveriesQueryValue } from '../../schemas/webhooks.js';
import { requireScope, type ServiceContext } from '../context.js';
import { decodePagedCursor, encodePagedCursor } from '../last-id-cursor.js';
import { findOwnWebhook, toDeliveryView } from './webhook-records.js';

const defaultLimit = 20;

/** The delivery log of the caller's webhook, newest first, each with its attempts. */
export async function listDeliveries({
  ctx,
  webhookId,
  query,
}: {
  ctx: ServiceContext;
  webhookId: string;
  query: ListDeliveriesQueryValue;
}): Promise<DeliveryListView> {
  requireScope(ctx, 'agents:read');
  await findOwnWebhook(ctx, webhookId);
  const limit = query.limit ?? defaultLimit;
  const cursor = query.cursor !== undefined ? decodePagedCursor('delivery', query.cursor, 1) : null;
  const fetched = await ctx.deps.repositories.webhookDeliveries.page({
    webhookId,
    limit: limit + 1,
    ...(cursor !== null ? { beforeId: cursor.lastId } : {}),
  });
  const hasMore = fetched.length > limit;
  const rows = fetched.slice(0, limit);
  const last = rows.at(-1);
  return {
    data: rows.map(toDeliveryView),
    pagination: { limit, hasMore, nextCursor: hasMore && last ? encodePagedCursor(last.id, 1) : null },
  };
}

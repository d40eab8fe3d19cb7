import { isoTime } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { UpdateWebhookInput, WebhookView } from '../../schemas/webhooks.js';
import type { WebhookRecord } from '../../storage/repositories/webhooks.js';
import { requireScope, type ServiceContext } from '../context.js';
import { ensureAllowedTarget, findOwnWebhook, toWebhookView } from './webhook-records.js';

/**
 * Changes a webhook (fields given replace the stored ones; `description: null`
 * clears it). Disabling it stops further attempts of its pending deliveries:
 * the dispatcher cancels them when they fall due.
 */
export async function updateWebhook({
  ctx,
  webhookId,
  patch,
}: {
  ctx: ServiceContext;
  webhookId: string;
  patch: UpdateWebhookInput;
}): Promise<WebhookView> {
  requireScope(ctx, 'agents:write');
  const current = await findOwnWebhook(ctx, webhookId);
  if (patch.url !== undefined && patch.url !== current.url) await ensureAllowedTarget(ctx, patch.url);
  const next: WebhookRecord = {
    ...current,
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.events !== undefined ? { events: [...patch.events] } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
  };
  const now = isoTime(ctx.deps.clock.now());
  next.updatedAt = now > current.updatedAt ? now : current.updatedAt;
  if (!(await ctx.deps.repositories.webhooks.update(next))) throw notFound('Webhook');
  return toWebhookView(next);
}

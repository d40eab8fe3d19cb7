import { notFound } from '../../errors.js';
import { requireScope, type ServiceContext } from '../context.js';

/** Deletes a webhook with its delivery log: nothing more is sent to it, including retries due later. */
export async function deleteWebhook({
  ctx,
  webhookId,
}: {
  ctx: ServiceContext;
  webhookId: string;
}): Promise<{ id: string; deleted: true }> {
  requireScope(ctx, 'agents:write');
  const { db, webhooks, webhookDeliveries } = ctx.deps.repositories;
  await db.transaction().execute(async (transaction) => {
    if (!(await webhooks.delete(ctx.actor.accountId, webhookId, transaction))) throw notFound('Webhook');
    await webhookDeliveries.deleteForWebhook(webhookId, transaction);
  });
  ctx.deps.logger.info({ webhookId, accountId: ctx.actor.accountId, requestId: ctx.requestId }, 'webhook deleted');
  return { id: webhookId, deleted: true };
}

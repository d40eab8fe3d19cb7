import { isoTime } from '../../clock.js';
import { notFound } from '../../errors.js';
import { requireScope, type ServiceContext } from '../context.js';
import { findOwnWebhook, newSigningSecret } from './webhook-records.js';

/** A new signing secret, in this answer only; attempts from now on are signed with it. */
export async function rotateWebhookSecret({
  ctx,
  webhookId,
}: {
  ctx: ServiceContext;
  webhookId: string;
}): Promise<{ id: string; secret: string }> {
  requireScope(ctx, 'agents:write');
  const current = await findOwnWebhook(ctx, webhookId);
  const secret = newSigningSecret();
  const now = isoTime(ctx.deps.clock.now());
  const next = {
    ...current,
    sealedSecret: ctx.deps.secretBox.seal(secret, current.id),
    updatedAt: now > current.updatedAt ? now : current.updatedAt,
  };
  if (!(await ctx.deps.repositories.webhooks.update(next))) throw notFound('Webhook');
  ctx.deps.logger.info({ webhookId, requestId: ctx.requestId }, 'webhook secret rotated');
  return { id: current.id, secret };
}

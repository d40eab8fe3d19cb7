import { isoTime } from '../../clock.js';
import { newId } from '../../ids.js';
import type { CreatedWebhookView, CreateWebhookInput } from '../../schemas/webhooks.js';
import type { WebhookRecord } from '../../storage/repositories/webhooks.js';
import { requireScope, type ServiceContext } from '../context.js';
import { ensureAllowedTarget, newSigningSecret, toWebhookView } from './webhook-records.js';

/** A new webhook of the account; its signing secret is in this answer only. */
export async function createWebhook({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: CreateWebhookInput;
}): Promise<CreatedWebhookView> {
  requireScope(ctx, 'agents:write');
  await ensureAllowedTarget(ctx, input.url);
  const now = isoTime(ctx.deps.clock.now());
  const id = newId('webhook');
  const secret = newSigningSecret();
  const record: WebhookRecord = {
    id,
    accountId: ctx.actor.accountId,
    url: input.url,
    events: [...input.events],
    description: input.description ?? null,
    enabled: input.enabled ?? true,
    sealedSecret: ctx.deps.secretBox.seal(secret, id),
    createdAt: now,
    updatedAt: now,
  };
  await ctx.deps.repositories.webhooks.insert(record);
  ctx.deps.logger.info({ webhookId: id, accountId: record.accountId, requestId: ctx.requestId }, 'webhook created');
  return { ...toWebhookView(record), secret };
}

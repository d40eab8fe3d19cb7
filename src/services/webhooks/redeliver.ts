import { isoTime } from '../../clock.js';
import { notFound, validationError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { DeliveryView } from '../../schemas/webhooks.js';
import { requireScope, type ServiceContext } from '../context.js';
import { findOwnWebhook, toDeliveryView } from './webhook-records.js';

/**
 * Sends an event again: a new delivery of the same event (same `webhook-id`
 * and body, so a receiver that already has it can tell), due now, with the
 * full retry schedule; the original stays in the log as it was.
 */
export async function redeliver({
  ctx,
  webhookId,
  deliveryId,
}: {
  ctx: ServiceContext;
  webhookId: string;
  deliveryId: string;
}): Promise<DeliveryView> {
  requireScope(ctx, 'agents:write');
  const webhook = await findOwnWebhook(ctx, webhookId);
  const { webhookDeliveries } = ctx.deps.repositories;
  const original = await webhookDeliveries.find(ctx.actor.accountId, webhookId, deliveryId);
  if (original === null) throw notFound('Delivery');
  if (!webhook.enabled) throw validationError('/path/webhookId', 'is disabled; enable it before redelivering');
  const now = isoTime(ctx.deps.clock.now());
  const copy = {
    id: newId('delivery'),
    webhookId,
    accountId: ctx.actor.accountId,
    eventId: original.eventId,
    eventType: original.eventType,
    payload: original.payload,
    createdAt: now,
  };
  await webhookDeliveries.insert([copy]);
  ctx.deps.webhooks.outbox.committed();
  return toDeliveryView({
    ...copy,
    state: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    attemptLog: [],
    updatedAt: now,
  });
}

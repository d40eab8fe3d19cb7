import { randomBytes } from 'node:crypto';
import { notFound, validationError } from '../../errors.js';
import { targetRefusal } from '../../outbound/target-check.js';
import type { DeliveryView, WebhookView } from '../../schemas/webhooks.js';
import type { DeliveryRecord } from '../../storage/repositories/webhook-deliveries.js';
import type { WebhookRecord } from '../../storage/repositories/webhooks.js';
import type { ServiceContext } from '../context.js';

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64 (192 bits). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** What clients see of a webhook: everything but the secret. */
export function toWebhookView(record: WebhookRecord): WebhookView {
  return {
    id: record.id,
    url: record.url,
    events: record.events,
    description: record.description,
    enabled: record.enabled,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export function toDeliveryView(record: DeliveryRecord): DeliveryView {
  return {
    id: record.id,
    webhookId: record.webhookId,
    eventId: record.eventId,
    eventType: record.eventType,
    status: record.state,
    // The former name of `status`, still sent for clients written against it.
    state: record.state,
    attempts: record.attempts,
    nextAttemptAt: record.state === 'pending' ? record.nextAttemptAt : null,
    lastAttempt: record.attemptLog.at(-1) ?? null,
    attemptLog: record.attemptLog,
    createdAt: record.createdAt,
  };
}

/** The caller's webhook, or 404: another account's webhook answers like a missing one. */
export async function findOwnWebhook(ctx: ServiceContext, webhookId: string): Promise<WebhookRecord> {
  const record = await ctx.deps.repositories.webhooks.find(ctx.actor.accountId, webhookId);
  if (record === null) throw notFound('Webhook');
  return record;
}

/** A 400 unless outbound calls may reach the URL (the SSRF rules of src/outbound). */
export async function ensureAllowedTarget(ctx: ServiceContext, url: string): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // JSON Schema's `uri` format accepts forms the URL parser does not (`http://` with no host).
    throw validationError('/body/url', 'must be an absolute http(s) URL with a host');
  }
  if (parsed.hostname === '') throw validationError('/body/url', 'must be an absolute http(s) URL with a host');
  const refusal = await targetRefusal(parsed, ctx.deps.webhooks.allowPrivateTargets);
  if (refusal !== null) {
    throw validationError(
      '/body/url',
      `is not allowed: ${refusal} (private targets need AGENTD_OUTBOUND_ALLOW_PRIVATE on the server)`,
    );
  }
}

import type { WebhookView } from '../../schemas/webhooks.js';
import { requireScope, type ServiceContext } from '../context.js';
import { findOwnWebhook, toWebhookView } from './webhook-records.js';

export async function getWebhook({ ctx, webhookId }: { ctx: ServiceContext; webhookId: string }): Promise<WebhookView> {
  requireScope(ctx, 'agents:read');
  return toWebhookView(await findOwnWebhook(ctx, webhookId));
}

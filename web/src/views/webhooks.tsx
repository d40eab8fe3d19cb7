import { WebhookDetail } from './webhooks/detail.js';
import { WebhookList } from './webhooks/list.js';

/** The Webhooks view: the list (#/webhooks) or one webhook with its deliveries (#/webhooks/<id>). */
export function WebhooksView({ webhookId }: { webhookId?: string }) {
  return webhookId ? <WebhookDetail webhookId={webhookId} /> : <WebhookList />;
}

import type { operations } from '../../../../src/client/openapi.js';
import { request } from '../../api.js';

/** The webhook routes the views call (README, "Webhooks"), with the shapes of the generated client types. */
type Json<Operation extends keyof operations, Status extends number> =
  operations[Operation]['responses'] extends Record<Status, { content: { 'application/json': infer Body } }>
    ? Body
    : never;

export type WebhookList = Json<'listWebhooks', 200>;
export type Webhook = WebhookList['data'][number];
export type CreatedWebhook = Json<'createWebhook', 201>;
export type DeliveryList = Json<'listWebhookDeliveries', 200>;
export type Delivery = DeliveryList['data'][number];
export type Attempt = Delivery['attemptLog'][number];
export type CreateWebhookBody = operations['createWebhook']['requestBody']['content']['application/json'];
export type UpdateWebhookBody = NonNullable<operations['updateWebhook']['requestBody']>['content']['application/json'];

const webhookPath = (webhookId: string) => `/v1/webhooks/${encodeURIComponent(webhookId)}`;

export const webhooks = {
  list: (query: { page?: number; limit?: number }, signal?: AbortSignal) =>
    request<WebhookList>('GET', '/v1/webhooks', { query, signal }),
  create: (body: CreateWebhookBody) => request<CreatedWebhook>('POST', '/v1/webhooks', { body }),
  get: (webhookId: string, signal?: AbortSignal) => request<Webhook>('GET', webhookPath(webhookId), { signal }),
  update: (webhookId: string, body: UpdateWebhookBody) => request<Webhook>('PATCH', webhookPath(webhookId), { body }),
  remove: (webhookId: string) => request<{ id: string; deleted: true }>('DELETE', webhookPath(webhookId)),
  rotateSecret: (webhookId: string) =>
    request<{ id: string; secret: string }>('POST', `${webhookPath(webhookId)}/rotate-secret`),
  deliveries: (webhookId: string, query: { limit?: number; cursor?: string }, signal?: AbortSignal) =>
    request<DeliveryList>('GET', `${webhookPath(webhookId)}/deliveries`, { query, signal }),
  redeliver: (webhookId: string, deliveryId: string) =>
    request<Delivery>('POST', `${webhookPath(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
};

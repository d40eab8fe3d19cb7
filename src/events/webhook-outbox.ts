import { newId } from '../ids.js';
import type { WebhookEventType } from '../schemas/webhooks.js';
import type { WebhookDeliveryRepository } from '../storage/repositories/webhook-deliveries.js';
import type { WebhookRepository } from '../storage/repositories/webhooks.js';
import type { Executor } from '../storage/schema.js';

/** One event as webhooks carry it; `id` becomes the `webhook-id` header, the same on every attempt. */
export interface OutboxEvent {
  id: string;
  accountId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
  occurredAt: string;
}

/**
 * Writes events to the outbox. The fan-out happens here, at write time: the
 * account's enabled webhooks subscribed to the type each get a delivery row,
 * in the caller's transaction, so a rolled-back change leaves none and a
 * committed one has them all, crash or not. An account without subscribers
 * costs one indexed read per event and writes nothing.
 */
export class WebhookOutbox {
  /** Set by the dispatcher of this instance: called after a commit that wrote deliveries. */
  onCommitted: () => void = () => undefined;

  constructor(
    private readonly repositories: { webhooks: WebhookRepository; webhookDeliveries: WebhookDeliveryRepository },
    readonly enabled: boolean,
  ) {}

  /** The number of deliveries written; pass it to `committed` once the transaction has committed. */
  async enqueue(event: OutboxEvent, executor: Executor): Promise<number> {
    if (!this.enabled) return 0;
    const subscribers = await this.repositories.webhooks.subscribers(event.accountId, event.type, executor);
    if (subscribers.length === 0) return 0;
    // The Standard Webhooks payload shape: type, timestamp, data.
    const payload = JSON.stringify({ type: event.type, timestamp: event.occurredAt, data: event.data });
    await this.repositories.webhookDeliveries.insert(
      subscribers.map((webhookId) => ({
        id: newId('delivery'),
        webhookId,
        accountId: event.accountId,
        eventId: event.id,
        eventType: event.type,
        payload,
        createdAt: event.occurredAt,
      })),
      executor,
    );
    return subscribers.length;
  }

  /** Wakes this instance's dispatcher after a commit, so deliveries leave at once rather than at the next poll. */
  committed(written = 1): void {
    if (written > 0 && this.enabled) this.onCommitted();
  }
}

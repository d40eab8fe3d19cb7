import { isoTime, type Clock } from '../clock.js';
import { newId } from '../ids.js';
import { webhookEventTypes, type WebhookEventType } from '../schemas/webhooks.js';
import type { AgentEventRepository, AgentEventType } from '../storage/repositories/agent-events.js';
import type { AgentRecord, AgentStatus } from '../storage/repositories/agents.js';
import type { Executor } from '../storage/schema.js';
import type { WebhookOutbox } from './webhook-outbox.js';

/** Who made a change: an API key (its id) or the service itself (e.g. after a provider rejected the agent's key). */
export type EventActor = { keyId: string } | 'service';

/** What recording needs: where to write, the time, and the request the change belongs to. */
export interface EventWriter {
  events: AgentEventRepository;
  clock: Clock;
  actor: EventActor;
  requestId: string | null;
  /** Where the event also goes for webhooks, in the same transaction. */
  outbox: WebhookOutbox;
}

/** The reason recorded when an owner changes the status with PATCH. */
export const ownerStatusReason = 'updated by its owner';

/**
 * Appends one event to the agent's trail with `executor`, which must be the
 * transaction of the change: the event then commits or rolls back with it, and
 * so do the webhook deliveries it fans out to. The caller wakes the dispatcher
 * (`outbox.committed()`) after the commit.
 */
export async function recordAgentEvent(
  writer: EventWriter,
  agent: Pick<AgentRecord, 'id' | 'accountId'>,
  type: AgentEventType,
  data: Record<string, unknown>,
  executor: Executor,
): Promise<void> {
  const event = {
    id: newId('event'),
    accountId: agent.accountId,
    agentId: agent.id,
    type,
    data,
    actor: writer.actor === 'service' ? 'service' : writer.actor.keyId,
    requestId: writer.requestId,
    createdAt: isoTime(writer.clock.now()),
  };
  await writer.events.insert(event, executor);
  // Only the event types webhooks offer leave the service; the others (connectors') stay in the trail.
  if (!isWebhookEventType(type)) return;
  await writer.outbox.enqueue(
    {
      id: event.id,
      accountId: event.accountId,
      type,
      data: { agentId: event.agentId, actor: event.actor, requestId: event.requestId, ...data },
      occurredAt: event.createdAt,
    },
    executor,
  );
}

const webhookTypes: ReadonlySet<string> = new Set(webhookEventTypes);
function isWebhookEventType(type: string): type is WebhookEventType {
  return webhookTypes.has(type);
}

export function statusChangeData(from: AgentStatus, to: AgentStatus, reason: string, by: EventActor) {
  return { from, to, reason, by: by === 'service' ? 'service' : 'owner' };
}

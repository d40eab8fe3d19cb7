import type { EventActor, EventWriter } from '../../events/agent-events.js';
import type { ServiceContext } from '../context.js';

/** The writer of the events a verb records: the caller's key, or the service when it acts on its own. */
export function eventWriterOf(ctx: ServiceContext, actor: EventActor = { keyId: ctx.actor.keyId }): EventWriter {
  return {
    events: ctx.deps.repositories.agentEvents,
    clock: ctx.deps.clock,
    actor,
    requestId: ctx.requestId,
    outbox: ctx.deps.webhooks.outbox,
  };
}

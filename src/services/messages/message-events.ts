import { isoTime } from '../../clock.js';
import type { AppError } from '../../errors.js';
import type { OutboxEvent } from '../../events/webhook-outbox.js';
import { newId } from '../../ids.js';
import type { MessageReplyView } from '../../schemas/messages.js';
import type { ServiceContext } from '../context.js';
import type { Exchange } from './exchange-store.js';

/** The webhook event of a reply: ids, usage and timing, never the texts (they stay in the history). */
export function messageCompletedEvent(ctx: ServiceContext, reply: MessageReplyView): OutboxEvent {
  return {
    id: newId('event'),
    accountId: ctx.actor.accountId,
    type: 'message.completed',
    data: {
      agentId: reply.agentId,
      messageId: reply.id,
      userId: reply.userId,
      roomId: reply.roomId,
      finishReason: reply.finishReason,
      usage: reply.usage,
      model: reply.model,
      toolCallCount: reply.toolCalls?.length ?? 0,
      // Deprecated: the same count under the name that is an array in the reply itself.
      toolCalls: reply.toolCalls?.length ?? 0,
      latencyMs: reply.latencyMs,
      createdAt: reply.createdAt,
    },
    occurredAt: isoTime(ctx.deps.clock.now()),
  };
}

/**
 * Records `message.failed`. A failed reply changes nothing that could roll
 * back (what was said before the failure is stored on its own), so the event
 * is written by itself; if even that fails, the client still gets its error
 * and the loss is logged.
 */
export async function recordMessageFailed(ctx: ServiceContext, exchange: Exchange, error: AppError): Promise<void> {
  const { outbox } = ctx.deps.webhooks;
  // An eval's reply (Exchange.isolated) is not a message anyone sent: its failure is in the eval's results.
  if (!outbox.enabled || exchange.isolated === true) return;
  const event: OutboxEvent = {
    id: newId('event'),
    accountId: ctx.actor.accountId,
    type: 'message.failed',
    data: {
      agentId: exchange.agentId,
      messageId: exchange.replyId,
      userId: exchange.userId,
      roomId: exchange.roomId,
      error: { code: error.code, status: error.status, detail: error.detail },
    },
    occurredAt: isoTime(ctx.deps.clock.now()),
  };
  try {
    outbox.committed(await outbox.enqueue(event, ctx.deps.repositories.db));
  } catch (failure) {
    ctx.deps.logger.error(
      { err: failure, agentId: exchange.agentId, requestId: ctx.requestId },
      'could not record a message.failed webhook event',
    );
  }
}

import { problemBody } from '../../errors.js';
import type { MessageStartedView } from '../../schemas/messages.js';
import type { ReplyEvent } from '../messages/reply.js';
import type { WireEvent } from './run-log.js';

/**
 * The events of a reply as every stream sends them (contract §5, and a run's
 * event stream): `message.started`, `message.delta`, `tool.called`,
 * `tool.completed`, `tool.approval_requested`, then `message.completed` or `message.failed`.
 */
export function startedEvent(started: MessageStartedView & { runId: string }): WireEvent {
  return { event: 'message.started', data: started };
}

/** A reply's next words (`message.delta`). */
export function deltaEvent(messageId: string, text: string): WireEvent {
  return { event: 'message.delta', data: { id: messageId, text } };
}

export function wireEventOf(event: ReplyEvent, messageId: string, requestId: string): WireEvent {
  switch (event.type) {
    case 'delta':
      return deltaEvent(messageId, event.text);
    case 'tool-called':
      return { event: 'tool.called', data: { id: messageId, ...event.call } };
    case 'tool-completed':
      return { event: 'tool.completed', data: { id: messageId, ...event.call } };
    case 'approval-requested':
      return { event: 'tool.approval_requested', data: { id: messageId, ...event.approval } };
    case 'completed':
      return { event: 'message.completed', data: event.reply };
    case 'failed':
      return { event: 'message.failed', data: { id: messageId, error: problemBody(event.error, requestId) } };
  }
}

/** The events that end a run's stream. */
export function isTerminal(event: WireEvent): boolean {
  return event.event === 'message.completed' || event.event === 'message.failed';
}

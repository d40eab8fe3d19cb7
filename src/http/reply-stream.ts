import type { FastifyReply } from 'fastify';
import { AppError } from '../errors.js';
import type { MessageReplyView } from '../schemas/messages.js';
import type { Reply } from '../services/messages/reply.js';
import type { SequencedEvent } from '../services/runs/run-log.js';
import type { GracefulShutdown } from './graceful-shutdown.js';
import { sendEventStream, type ServerSentEvent } from './sse.js';

/**
 * What every route that answers with an agent's reply shares (the native
 * messages route and the OpenAI-compatible door): a client that goes away
 * aborts the reply, a stream is cut at the shutdown deadline like a hang-up,
 * and a non-streamed answer is the reply's outcome.
 */

/** Aborted when the client goes away before its response is finished (while waiting, or mid-stream). */
export function clientAbortController(reply: FastifyReply): AbortController {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller;
}

/** Sends `events` as the response's event stream; the stream holds the shutdown until it ends or is cut. */
export async function streamReplyEvents<Item = ServerSentEvent>(
  reply: FastifyReply,
  events: AsyncIterable<Item>,
  options: {
    controller: AbortController;
    shutdown: GracefulShutdown;
    keepAliveMs: number;
    opening?: ServerSentEvent[];
    frame?: (item: Item) => ServerSentEvent;
  },
): Promise<void> {
  // At the shutdown deadline the stream is cut like a client hang-up: the model call (and any tool) is
  // aborted and the reply is stored with finishReason "aborted".
  const registration = options.shutdown.beginStream(() => options.controller.abort());
  reply.raw.once('close', () => registration.end());
  await sendEventStream(reply, events, {
    keepAliveMs: options.keepAliveMs,
    onClientGone: () => options.controller.abort(),
    ...(options.opening !== undefined ? { opening: options.opening } : {}),
    ...(options.frame !== undefined ? { frame: options.frame } : {}),
  });
}

/**
 * Sends a run's events, each with its `id`, as the response's event stream.
 * The reader's leaving (or the shutdown deadline) ends the reading only: the
 * run goes on where it is produced.
 */
export async function streamRunEvents(
  reply: FastifyReply,
  events: AsyncIterable<SequencedEvent>,
  options: { signal: AbortController; keepAliveMs: number; shutdown: GracefulShutdown },
): Promise<void> {
  const registration = options.shutdown.beginStream(() => options.signal.abort());
  reply.raw.once('close', () => registration.end());
  await sendEventStream(reply, events, {
    keepAliveMs: options.keepAliveMs,
    onClientGone: () => options.signal.abort(),
    frame: ({ seq, event, data }) => ({ id: seq, event, data }),
  });
}

/** The stored reply of an answer read to its end, or the error it failed with. */
export async function completedReply(answer: Reply): Promise<MessageReplyView> {
  for await (const event of answer.events()) {
    if (event.type === 'completed') return event.reply;
    if (event.type === 'failed') throw event.error;
  }
  throw new AppError('internal', 'The reply ended without an outcome.');
}

import { isoTime } from '../../clock.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { abortableDelay } from '../../providers/abortable-delay.js';
import type { MessageReplyView } from '../../schemas/messages.js';
import type { RunTrigger } from '../../schemas/runs.js';
import type { ServiceContext, ServiceDeps } from '../context.js';
import { sendMessage } from '../messages/send-message.js';

export interface ProducedRun {
  status: 'completed' | 'failed' | 'cancelled';
  reply: MessageReplyView | null;
  error: AppError | null;
}

/** How long a queued run waits before it asks again for one of the agent's in-flight slots. */
const slotRetryMs = 250;

function problemOf(error: AppError): Record<string, unknown> {
  return { type: 'about:blank', title: error.title, status: error.status, code: error.code, detail: error.detail };
}

/**
 * Produces a queued run (its row already inserted, status 'queued') on this
 * instance: waits for one of the agent's in-flight slots, then replies exactly
 * as POST …/messages does, and ends the run row. Never throws.
 */
export async function produceRun(
  deps: ServiceDeps,
  run: {
    id: string;
    accountId: string;
    agentId: string;
    trigger: RunTrigger;
    input: { text: string; userId?: string; roomId?: string; context?: Record<string, unknown> };
  },
  signal: AbortSignal = new AbortController().signal,
): Promise<ProducedRun> {
  const { repositories, clock } = deps;
  const ctx: ServiceContext = {
    deps,
    actor: { accountId: run.accountId, keyId: run.trigger, scopes: new Set(['messages:send']) },
    requestId: newId('request'),
  };
  const end = async (outcome: ProducedRun): Promise<ProducedRun> => {
    await repositories.runs
      .finish(run.id, {
        status: outcome.status,
        finishReason: outcome.reply?.finishReason ?? null,
        usage: outcome.reply ? JSON.stringify(outcome.reply.usage) : null,
        result: outcome.reply ? JSON.stringify(outcome.reply) : null,
        error: outcome.error ? JSON.stringify(problemOf(outcome.error)) : null,
        eventCount: 0,
        finishedAt: isoTime(clock.now()),
      })
      .catch(() => false);
    return outcome;
  };
  try {
    let answer;
    for (;;) {
      if (signal.aborted)
        return await end({
          status: 'cancelled',
          reply: null,
          error: new AppError('conflict', 'The run was cancelled.'),
        });
      try {
        answer = await sendMessage({ ctx, agentId: run.agentId, input: run.input, signal });
        break;
      } catch (error) {
        // A full agent makes the run wait for a slot, not vanish.
        if (error instanceof AppError && error.code === 'concurrency_limited') {
          await abortableDelay(slotRetryMs, signal);
          continue;
        }
        throw error;
      }
    }
    await repositories.runs.start(run.id, {
      instanceId: deps.platforms.instanceId,
      messageId: answer.started.id,
      startedAt: isoTime(clock.now()),
    });
    for await (const event of answer.events()) {
      if (event.type === 'completed') return await end({ status: 'completed', reply: event.reply, error: null });
      if (event.type === 'failed') return await end({ status: 'failed', reply: null, error: event.error });
    }
    return await end({
      status: 'failed',
      reply: null,
      error: new AppError('internal', 'The reply ended without an outcome.'),
    });
  } catch (error) {
    const appError = error instanceof AppError ? error : new AppError('internal', 'The run failed.', { cause: error });
    return end({ status: 'failed', reply: null, error: appError });
  }
}

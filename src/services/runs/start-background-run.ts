import { isoTime } from '../../clock.js';
import { newId } from '../../ids.js';
import { readMessageAttachments } from '../messages/message-attachments.js';
import type { SendMessageRequest } from '../messages/send-message.js';
import type { RunView } from '../../schemas/runs.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { ensureAnswering } from '../messages/agent-availability.js';
import { checkContextSize } from '../messages/send-message.js';
import { produceRun } from './produce-run.js';
import { runView } from './runs.js';

/**
 * A background message (`background: true`): the same checks as a message
 * up front (404, 503 for an agent that cannot answer), then the run is
 * written as queued and produced by this instance, whatever becomes of the
 * connection that asked. It waits for one of the agent's in-flight slots
 * rather than being refused. Resolves with the queued run.
 */
export async function startBackgroundRun({
  ctx,
  agentId,
  input,
}: {
  ctx: ServiceContext;
  agentId: string;
  input: SendMessageRequest;
}): Promise<RunView> {
  requireScope(ctx, 'messages:send');
  checkContextSize(input);
  const agent = await findOwnAgent(ctx, agentId);
  await ensureAnswering(ctx, agent);
  // Read and checked now, so a bad image is a 400 here and the run gets the bytes (a URL is fetched once).
  const images = await readMessageAttachments(ctx, input.attachments, AbortSignal.timeout(30_000));
  const { repositories } = ctx.deps;
  const id = newId('run');
  const now = isoTime(ctx.deps.clock.now());
  const row = await repositories.runs.createQueued({
    id,
    accountId: ctx.actor.accountId,
    agentId: agent.id,
    trigger: 'message',
    taskId: null,
    userId: input.userId ?? null,
    roomId: input.roomId ?? null,
    input: input.text,
    // A takeover before the first step begins the run again from its text and this.
    request: input.context !== undefined ? JSON.stringify({ context: input.context }) : null,
    // This instance produces it: should it stop before the run begins, the sweep ends the run.
    instanceId: ctx.deps.runs.instanceId,
    createdAt: now,
    approvalId: null,
  });
  void produceRun(ctx.deps, {
    id,
    accountId: ctx.actor.accountId,
    agentId: agent.id,
    trigger: 'message',
    input: {
      text: input.text,
      ...(input.userId !== undefined ? { userId: input.userId } : {}),
      ...(input.roomId !== undefined ? { roomId: input.roomId } : {}),
      ...(input.context !== undefined ? { context: input.context } : {}),
      ...(images.length > 0
        ? { attachments: images.map(({ image }) => ({ type: 'image' as const, bytes: image.bytes })) }
        : {}),
    },
  });
  return runView(ctx, row);
}

import { isoTime } from '../../clock.js';
import { newId } from '../../ids.js';
import { readMessageAttachments } from '../messages/message-attachments.js';
import type { SendMessageRequest } from '../messages/send-message.js';
import type { RunView } from '../../schemas/runs.js';
import type { RunRow } from '../../storage/repositories/runs.js';
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
  const row: RunRow = {
    id,
    account_id: ctx.actor.accountId,
    agent_id: agent.id,
    trigger: 'message',
    task_id: null,
    due_at: null,
    status: 'queued',
    background: 1,
    user_id: input.userId ?? null,
    room_id: input.roomId ?? null,
    input: input.text,
    message_id: null,
    finish_reason: null,
    usage: null,
    result: null,
    error: null,
    event_count: 0,
    // This instance produces it: should it stop before the run begins, the sweep ends the run.
    instance_id: ctx.deps.runs.instanceId,
    cancel_requested_at: null,
    created_at: now,
    started_at: null,
    finished_at: null,
    approval_id: null,
    call_key: null,
  };
  await repositories.runs.insert(row);
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

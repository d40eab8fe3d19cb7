import type { RateLimitSettings } from '../../config.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { agentRateKey } from '../../limits/rate-keys.js';
import type { RateLimiter } from '../../limits/rate-limiter.js';
import type { InboundMessage, InboundReply } from '../../platforms/platform.js';
import { maxAttachmentsPerMessage } from '../../schemas/files.js';
import type { ServiceContext, ServiceDeps } from '../context.js';
import { sendMessage } from '../messages/send-message.js';
import type { MessageReplyView } from '../../schemas/messages.js';

/** What a platform user reads when the agent's limits refuse their message: short, polite, not silence. */
export const limitedReplyText = "I'm getting a lot of messages right now. Please try again in a minute.";
/** What they read when an image they sent cannot be taken (too large, or not a png, jpeg, webp or gif). */
export const refusedImageReplyText =
  "Sorry, I can't read that image: send a png, jpeg, webp or gif of at most a few MiB.";
/** What they read when the model cannot answer for a while (a transient fault, contract §7). */
export const unavailableReplyText = "Sorry, I can't answer right now. Please try again in a moment.";

const windowMs = 60_000;

/**
 * What the chat reads: the reply, and for one that paused for approvals a line
 * saying what waits (the rest is posted to the chat once decided, where the
 * connector can name it: docs/approvals.md).
 */
function replyText(reply: MessageReplyView): string {
  if (reply.finishReason !== 'approval_required' || !reply.approvals?.length) return reply.text;
  const names = [...new Set(reply.approvals.map((approval) => approval.name))].join(', ');
  return `${reply.text}\n\n${waitingForApprovalText(names)}`.trim();
}

export const waitingForApprovalText = (tools: string) => `Waiting for approval to use ${tools}.`;

export interface PlatformMessageOptions {
  deps: ServiceDeps;
  rateLimiter: RateLimiter;
  rateLimits: RateLimitSettings | null;
}

/**
 * A message from a platform, through the same path as POST
 * /v1/agents/{id}/messages: the agent's per-minute budget (the same key as
 * the route's, so both doors share it), its in-flight bound, its memory and
 * tools. Acting as the service on the agent's account, with only the scope
 * to send messages.
 */
export async function handlePlatformMessage(
  options: PlatformMessageOptions,
  agent: { id: string; accountId: string },
  type: string,
  message: InboundMessage,
  signal: AbortSignal,
): Promise<InboundReply> {
  const { deps, rateLimiter, rateLimits } = options;
  if (message.unreadableFile) return { text: refusedImageReplyText, limited: false };
  if (rateLimits !== null) {
    const limit = rateLimits.perMinute.sendMessage;
    const decision = await rateLimiter.consume(agentRateKey('sendMessage', agent.accountId, agent.id), limit, windowMs);
    if (!decision.allowed) return { text: limitedReplyText, limited: true };
  }
  const ctx: ServiceContext = {
    deps,
    actor: { accountId: agent.accountId, keyId: `platform:${type}`, scopes: new Set(['messages:send']) },
    requestId: newId('request'),
  };
  try {
    const answer = await sendMessage({
      ctx,
      agentId: agent.id,
      input: {
        text: message.content,
        userId: message.userId,
        ...(message.roomId ? { roomId: message.roomId } : {}),
        ...(message.images?.length
          ? {
              attachments: message.images
                .slice(0, maxAttachmentsPerMessage)
                .map((bytes) => ({ type: 'image' as const, data: Buffer.from(bytes).toString('base64') })),
            }
          : {}),
      },
      signal,
      trigger: 'platform',
      origin: { platform: type, ...(message.replyTarget ? { replyTarget: message.replyTarget } : {}) },
    });
    const ended = await answer.outcome();
    if (ended.reply !== null) {
      return { text: replyText(ended.reply), limited: false, attachments: ended.reply.attachments };
    }
    if (ended.failure !== null) throw ended.failure;
    throw new AppError('internal', 'The reply ended without an outcome.');
  } catch (error) {
    // A spend limit is a limit like the others: the platform's user is told to try later, not of a failure.
    if (
      error instanceof AppError &&
      (error.code === 'concurrency_limited' || error.code === 'rate_limited' || error.code === 'budget_exceeded')
    ) {
      return { text: limitedReplyText, limited: true };
    }
    if (
      error instanceof AppError &&
      (error.code === 'payload_too_large' || error.code === 'validation_failed') &&
      error.errors?.some((problem) => problem.path.startsWith('/body/attachments'))
    ) {
      return { text: refusedImageReplyText, limited: false };
    }
    if (error instanceof AppError && (error.code === 'provider_unavailable' || error.code === 'agent_unavailable')) {
      return { text: unavailableReplyText, limited: false };
    }
    throw error;
  }
}

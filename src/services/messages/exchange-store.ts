import { isoTime } from '../../clock.js';
import type { StoredToolCall } from '../../conversation/history-window.js';
import type { FinishReason, TokenUsage } from '../../providers/model-adapter.js';
import type { MessageReplyView } from '../../schemas/messages.js';
import type { ServiceContext } from '../context.js';

/** One message and the agent's answer to it, as they will be stored and returned. */
export interface Exchange {
  agentId: string;
  userId: string | null;
  roomId: string | null;
  conversation: string | null;
  userTurnId: string;
  /**
   * Ids for the tool turns of this reply, drawn between the message's and the
   * reply's so that id order (how history is read and listed) puts them in
   * between; their number is the most tool calls one reply may make.
   */
  toolTurnIds: string[];
  replyId: string;
  text: string;
  model: { provider: string; name: string };
  /** Epoch milliseconds when the message arrived. */
  startedAt: number;
  /** performance.now() when the message arrived, for latency. */
  startedTick: number;
}

/**
 * Stores the exchange (the message, the tool turns and the answer in one
 * statement, so history never holds part of one) when it belongs to a
 * conversation and its agent still exists (a reply can outlive a delete of
 * its agent), and returns the reply.
 */
export async function storeExchange(
  ctx: ServiceContext,
  exchange: Exchange,
  outcome: { text: string; finishReason: FinishReason; usage: TokenUsage; toolCalls: StoredToolCall[] },
): Promise<MessageReplyView> {
  const createdAt = isoTime(exchange.startedAt);
  const latencyMs = Math.max(0, Math.round(performance.now() - exchange.startedTick));
  const reply: MessageReplyView = {
    id: exchange.replyId,
    agentId: exchange.agentId,
    userId: exchange.userId,
    roomId: exchange.roomId,
    text: outcome.text,
    finishReason: outcome.finishReason,
    usage: outcome.usage,
    model: exchange.model,
    toolCalls: outcome.toolCalls,
    latencyMs,
    createdAt,
  };
  if (exchange.conversation === null) return reply;
  const common = {
    agent_id: exchange.agentId,
    conversation: exchange.conversation,
    user_id: exchange.userId,
    room_id: exchange.roomId,
    created_at: createdAt,
  };
  const stored = await ctx.deps.repositories.messages.insertForExistingAgent(exchange.agentId, [
    {
      ...common,
      id: exchange.userTurnId,
      role: 'user',
      text: exchange.text,
      finish_reason: null,
      usage: null,
      model: null,
      latency_ms: null,
      tool: null,
    },
    ...outcome.toolCalls.slice(0, exchange.toolTurnIds.length).map((call, index) => ({
      ...common,
      id: exchange.toolTurnIds[index] as string,
      role: 'tool' as const,
      text: '',
      finish_reason: null,
      usage: null,
      model: null,
      latency_ms: null,
      tool: JSON.stringify(call),
    })),
    {
      ...common,
      id: exchange.replyId,
      role: 'agent',
      text: outcome.text,
      finish_reason: outcome.finishReason,
      usage: JSON.stringify(outcome.usage),
      model: JSON.stringify(exchange.model),
      latency_ms: latencyMs,
      tool: null,
    },
  ]);
  // Long-term memory catches up in the background, never on the reply's path.
  if (stored) {
    ctx.deps.memory.schedule({
      accountId: ctx.actor.accountId,
      agentId: exchange.agentId,
      conversation: exchange.conversation,
    });
  }
  return reply;
}

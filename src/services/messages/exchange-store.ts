import type { SpendReservation } from '../spend/admit-spend.js';
import type { Citation } from '../../schemas/knowledge-bases.js';
import { isoTime } from '../../clock.js';
import type { StoredToolCall } from '../../conversation/history-window.js';
import type { FinishReason, TokenUsage } from '../../providers/model-adapter.js';
import { costOf } from '../../providers/prices.js';
import type { MessageReplyView } from '../../schemas/messages.js';
import type { RunTrigger } from '../../schemas/runs.js';
import type { MessageRow } from '../../storage/repositories/messages.js';
import type { ServiceContext } from '../context.js';
import type { RunEnding } from '../runs/run-runtime.js';
import type { MessageImage } from './message-attachments.js';
import { messageCompletedEvent } from './message-events.js';

/**
 * The platform a message came from and, when its connector names one, the
 * place a later answer goes (a `postText` target: the chat, the channel and
 * thread), so a reply resumed after approvals lands where it was asked.
 */
export interface MessageOrigin {
  platform: string;
  replyTarget?: string;
}

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
  /** Whether the reply is streamed to its client (counted apart in the agent's metrics). */
  streamed: boolean;
  /** The run this reply is, and who started it. */
  runId: string;
  /** The agent's configuration version answering (recorded with its run). */
  agentVersion?: number;
  trigger: RunTrigger;
  /** The knowledge-base chunks the prompt held, once it is built. */
  citations?: Citation[];
  /** The platform the message came from, if any: a reply resumed after approvals is posted back there. */
  origin?: MessageOrigin | null;
  /**
   * The rest of a reply that paused for approvals: its message was stored
   * with the paused part, so only the tool turns and the answer are.
   */
  continuation?: boolean;
  /**
   * An eval's reply (src/services/evals/): its turns are stored in its own conversation only for the case's next
   * message, so no memory work is started for it and no message webhook event is written.
   */
  isolated?: boolean;
  /** Images sent with the message, checked; stored with its turn. */
  attachments?: MessageImage[];
  /** What the message reserved of its spend limits (none when no limit applies); settled with its usage. */
  spend?: SpendReservation;
  /**
   * The images' bytes being written by the file store (`put`), started
   * as soon as the message is known to be stored so that the write overlaps
   * the model's answer; storing the exchange waits for it, and an exchange
   * never stored discards them (`discardKeptImages`).
   */
  keptImages?: Promise<void>;
}

/**
 * The usage with its cost, priced now: prices change, and what a reply cost is what it cost when it was made.
 * A model without a price costs 0 and says so (`priced: false`).
 */
export function pricedUsage(
  ctx: ServiceContext,
  exchange: Pick<Exchange, 'model'>,
  usage: TokenUsage,
): TokenUsage & { costUsd: number; priced: boolean } {
  const cost = costOf(ctx.deps.prices.priceOf(exchange.model.provider, exchange.model.name), usage);
  return { ...usage, costUsd: cost ?? 0, priced: cost !== null };
}

/** Starts putting a stored message's images where the file store keeps them (see `Exchange.keptImages`). */
export function keepImages(ctx: ServiceContext, exchange: Exchange): void {
  const images = (exchange.attachments ?? []).map((image) => image.image);
  if (images.length === 0 || exchange.conversation === null) return;
  const kept = ctx.deps.files.store.put({ accountId: ctx.actor.accountId, agentId: exchange.agentId }, images);
  // Its failure is the store's to report, when the exchange is stored; a never stored one's is moot.
  kept.catch(() => undefined);
  exchange.keptImages = kept;
}

/** An exchange that will not be stored: the bytes put for its images go (else the file sweep takes them). */
export async function discardKeptImages(ctx: ServiceContext, exchange: Exchange): Promise<void> {
  const kept = exchange.keptImages;
  if (kept === undefined) return;
  delete exchange.keptImages;
  await kept.catch(() => undefined);
  const images = (exchange.attachments ?? []).map((image) => image.image);
  await ctx.deps.files.store.discard({ accountId: ctx.actor.accountId, agentId: exchange.agentId }, images);
}

/**
 * Stores the exchange (the message, the tool turns and the answer in one
 * statement, so history never holds part of one) when it belongs to a
 * conversation and its agent still exists (a reply can outlive a delete of
 * its agent), and returns the reply. The `message.completed` webhook event
 * is written in the same transaction (a reply that failed part-way is
 * reported as `message.failed` instead, see provider-failure.ts).
 */
export async function storeExchange(
  ctx: ServiceContext,
  exchange: Exchange,
  outcome: { text: string; finishReason: FinishReason; usage: TokenUsage; toolCalls: StoredToolCall[] },
  /** The end of the exchange's run, written in the same transaction (a completed reply's). */
  endRun?: (reply: MessageReplyView) => Promise<RunEnding | null>,
): Promise<MessageReplyView> {
  const createdAt = isoTime(exchange.startedAt);
  const latencyMs = Math.max(0, Math.round(performance.now() - exchange.startedTick));
  const produced = outcome.toolCalls.flatMap((call) => call.attachments ?? []);
  const sent = exchange.attachments ?? [];
  const reply: MessageReplyView = {
    id: exchange.replyId,
    runId: exchange.runId,
    agentId: exchange.agentId,
    userId: exchange.userId,
    roomId: exchange.roomId,
    text: outcome.text,
    finishReason: outcome.finishReason,
    usage: pricedUsage(ctx, exchange, outcome.usage),
    model: exchange.model,
    toolCalls: outcome.toolCalls,
    attachments: produced,
    citations: exchange.citations ?? [],
    latencyMs,
    createdAt,
  };
  const { outbox } = ctx.deps.webhooks;
  const event =
    outbox.enabled && outcome.finishReason !== 'error' && exchange.isolated !== true
      ? messageCompletedEvent(ctx, reply)
      : null;
  const ending = endRun ? await endRun(reply) : null;
  const rows = exchange.conversation === null ? [] : turnRows(exchange, exchange.conversation, outcome, reply);
  // A completed reply without images: the run store writes it (one statement on PostgreSQL, see runs-postgres.ts).
  if (ending?.rows && sent.length === 0) {
    let result;
    try {
      result = await ctx.deps.repositories.runs.completeReply({
        agentId: exchange.agentId,
        turns: rows,
        run: ending.rows,
        event: event === null ? null : { accountId: event.accountId, type: event.type },
      });
    } catch (error) {
      ending.failed();
      throw error;
    }
    // Declined when the account has webhooks for the event: their deliveries are written by the transaction below.
    if (result.written) {
      ending.committed();
      if (result.stored) scheduleMemory(ctx, exchange);
      return reply;
    }
  }
  if (exchange.conversation === null) {
    // Nothing is stored for this exchange: the event and the run's end are the only writes.
    if (ending === null) {
      if (event !== null) outbox.committed(await outbox.enqueue(event, ctx.deps.repositories.db));
      return reply;
    }
    let written = 0;
    try {
      await ctx.deps.repositories.db.transaction().execute(async (transaction) => {
        if (event !== null) written = await outbox.enqueue(event, transaction);
        await ending.write(transaction);
      });
    } catch (error) {
      ending.failed();
      throw error;
    }
    outbox.committed(written);
    ending.committed();
    return reply;
  }
  const { messages, db } = ctx.deps.repositories;
  const fileStore = ctx.deps.files.store;
  const owner = { accountId: ctx.actor.accountId, agentId: exchange.agentId };
  const images = sent.map((image) => image.image);
  let stored: boolean;
  if (event === null && ending === null && sent.length === 0) {
    stored = await messages.insertForExistingAgent(exchange.agentId, rows);
  } else {
    let written = 0;
    try {
      // Before the transaction: the bytes are written before a row names them, and no file write holds the writer.
      if (images.length > 0) {
        const kept = exchange.keptImages ?? fileStore.put(owner, images);
        delete exchange.keptImages;
        await kept;
      }
      stored = await db.transaction().execute(async (transaction) => {
        const inserted = await messages.insertForExistingAgent(exchange.agentId, rows, transaction);
        if (inserted) {
          // The images sent with the message are stored with its turn, or not at all.
          if (images.length > 0) await fileStore.save(owner, images, 'message', transaction);
          if (event !== null) written = await outbox.enqueue(event, transaction);
        }
        // A deleted agent's runs are gone with it: the run's end then changes nothing.
        await ending?.write(transaction);
        return inserted;
      });
    } catch (error) {
      ending?.failed();
      if (images.length > 0) await fileStore.discard(owner, images);
      throw error;
    }
    if (!stored && images.length > 0) await fileStore.discard(owner, images);
    outbox.committed(written);
    ending?.committed();
  }
  if (stored) scheduleMemory(ctx, exchange);
  return reply;
}

/** Long-term memory catches up in the background, never on the reply's path. */
function scheduleMemory(ctx: ServiceContext, exchange: Exchange): void {
  if (exchange.conversation === null || exchange.isolated === true) return;
  ctx.deps.memory.schedule({
    accountId: ctx.actor.accountId,
    agentId: exchange.agentId,
    conversation: exchange.conversation,
  });
}

/** The exchange's turns as stored: the message (unless a continuation's), its tool turns, the answer. */
function turnRows(
  exchange: Exchange,
  conversation: string,
  outcome: { text: string; finishReason: FinishReason; toolCalls: StoredToolCall[] },
  reply: MessageReplyView,
): MessageRow[] {
  const sent = exchange.attachments ?? [];
  const common = {
    agent_id: exchange.agentId,
    conversation,
    user_id: exchange.userId,
    room_id: exchange.roomId,
    created_at: reply.createdAt,
  };
  return [
    ...(exchange.continuation
      ? []
      : [
          {
            ...common,
            id: exchange.userTurnId,
            role: 'user' as const,
            text: exchange.text,
            finish_reason: null,
            usage: null,
            model: null,
            latency_ms: null,
            tool: null,
            ...(sent.length > 0 ? { attachments: JSON.stringify(sent.map((image) => image.view)) } : {}),
          },
        ]),
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
      usage: JSON.stringify(reply.usage),
      model: JSON.stringify(exchange.model),
      latency_ms: reply.latencyMs,
      tool: null,
      ...(reply.attachments.length > 0 ? { attachments: JSON.stringify(reply.attachments) } : {}),
    },
  ];
}

import type { AppError } from '../../errors.js';
import type { AssembledPrompt } from '../../conversation/prompt.js';
import { estimateTokens } from '../../conversation/tokens.js';
import type { ConcurrencyLease } from '../../limits/concurrency-limiter.js';
import type { FinishReason, TokenUsage } from '../../providers/model-adapter.js';
import type { OpenedModelStream } from '../../providers/model-gateway.js';
import { ProviderError } from '../../providers/provider-error.js';
import type { MessageReplyView, MessageStartedView } from '../../schemas/messages.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import type { ServiceContext } from '../context.js';
import { storeExchange, type Exchange } from './exchange-store.js';
import { appErrorForFailure } from './provider-failure.js';

export type ReplyEvent =
  | { type: 'delta'; text: string }
  | { type: 'completed'; reply: MessageReplyView }
  | { type: 'failed'; error: AppError };

/**
 * A reply whose model answer has begun. `events()` yields its text as it
 * comes, then exactly one `completed` (stored, with usage, model and latency)
 * or `failed`. However it ends, even when its reader stops reading because the
 * client went away, the provider call is ended, the exchange is stored (an
 * interrupted one with finishReason `aborted`), the circuit breaker hears the
 * outcome and the concurrency slot is released: once.
 */
export class Reply {
  readonly started: MessageStartedView;
  #consumed = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly agent: AgentRecord,
    private readonly exchange: Exchange,
    private readonly prompt: AssembledPrompt,
    private readonly model: OpenedModelStream,
    private readonly lease: ConcurrencyLease | null,
  ) {
    this.started = {
      id: exchange.replyId,
      agentId: exchange.agentId,
      userId: exchange.userId,
      roomId: exchange.roomId,
      model: exchange.model,
      createdAt: new Date(exchange.startedAt).toISOString(),
    };
  }

  #estimatedUsage(text: string): TokenUsage {
    const inputTokens = this.prompt.estimatedInputTokens;
    const outputTokens = estimateTokens(text);
    return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  }

  #store(text: string, finishReason: FinishReason, usage: TokenUsage): Promise<MessageReplyView> {
    return storeExchange(this.ctx, this.exchange, { text, finishReason, usage });
  }

  async *events(): AsyncGenerator<ReplyEvent, void, undefined> {
    if (this.#consumed) throw new Error('A reply can be read once');
    this.#consumed = true;
    const { model } = this;
    let text = '';
    let settled = false;
    try {
      let part = model.first;
      while (part.type === 'text-delta') {
        text += part.text;
        yield { type: 'delta', text: part.text };
        const next = await model.next();
        if (next === null)
          throw new ProviderError('unavailable', 'The provider ended its answer without finishing it.');
        part = next;
      }
      if (part.type === 'tool-call')
        throw new ProviderError('unavailable', 'The model asked for a tool it was not given.');
      model.ticket.succeeded();
      settled = true;
      yield { type: 'completed', reply: await this.#store(text, part.finishReason, part.usage) };
    } catch (error) {
      // Only model failures are handled here; anything else (storage) is a bug or an outage of our own.
      if (settled || !(error instanceof ProviderError)) {
        settled = true;
        throw error;
      }
      settled = true;
      if (error.kind === 'aborted') {
        model.ticket.released();
        yield { type: 'completed', reply: await this.#store(text, 'aborted', this.#estimatedUsage(text)) };
        return;
      }
      if (error.countsAgainstProvider) model.ticket.failed();
      else model.ticket.released();
      // What was said before the failure stays in the conversation, marked as such.
      if (text !== '') await this.#store(text, 'error', this.#estimatedUsage(text));
      yield { type: 'failed', error: await appErrorForFailure(this.ctx, this.agent, error) };
    } finally {
      model.close();
      if (!settled) {
        // The reader stopped early (its client went away while a part was waiting to be sent).
        model.ticket.released();
        await this.#store(text, 'aborted', this.#estimatedUsage(text)).catch((error: unknown) =>
          this.ctx.deps.logger.error(
            { err: error, agentId: this.agent.id, requestId: this.ctx.requestId },
            'could not store an aborted reply',
          ),
        );
      }
      await this.lease?.release();
    }
  }
}

import { AppError, problemBody } from '../../errors.js';
import type { StoredToolCall } from '../../conversation/history-window.js';
import { toolStepMessages, type AssembledPrompt, type PromptMessage } from '../../conversation/prompt.js';
import { estimateTokens } from '../../conversation/tokens.js';
import { parsedToolInput, runToolCall, ToolCallAborted, type ToolLimits } from '../../conversation/tool-runner.js';
import type { ConcurrencyLease } from '../../limits/concurrency-limiter.js';
import type { Toolbox } from '../../plugins/toolsets.js';
import type { FinishReason, ToolCallPart, TokenUsage } from '../../providers/model-adapter.js';
import type { OpenedModelStream } from '../../providers/model-gateway.js';
import { ProviderError } from '../../providers/provider-error.js';
import type { MessageReplyView, MessageStartedView } from '../../schemas/messages.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { isStoreUnavailable } from '../../storage/store-unavailable.js';
import type { ServiceContext } from '../context.js';
import type { RunLog, WireEvent } from '../runs/run-log.js';
import type { RunOutcome } from '../runs/run-runtime.js';
import { startedEvent, wireEventOf } from '../runs/wire-events.js';
import { storeExchange, type Exchange } from './exchange-store.js';
import { failureTypeOf, recordMessageMetrics, type MessageEnding } from './message-metrics.js';
import { appErrorForFailure } from './provider-failure.js';

export type ReplyEvent =
  | { type: 'delta'; text: string }
  | { type: 'tool-called'; call: Pick<StoredToolCall, 'toolCallId' | 'name' | 'input'> }
  | { type: 'tool-completed'; call: StoredToolCall }
  | { type: 'completed'; reply: MessageReplyView }
  | { type: 'failed'; error: AppError };

/** A reply's event as recorded in its run: its sequence number (the SSE `id`) and how streams send it. */
export type RecordedReplyEvent = ReplyEvent & { seq: number; wire: WireEvent };

/** How a reply may use tools: the agent's toolbox, its limits, and how to ask the model again with results. */
export interface ToolLoop {
  toolbox: Toolbox;
  limits: ToolLimits;
  /** Tool rounds before the model must answer without tools. */
  maxSteps: number;
  /** Opens the model's next step with these messages after the prompt's; `offerTools` false on the last. */
  nextStep(messages: PromptMessage[], offerTools: boolean): Promise<OpenedModelStream>;
  /** The client's (and the run's) signal: aborts a running tool as well as the model call. */
  signal: AbortSignal;
}

function addUsage(total: TokenUsage, step: TokenUsage): TokenUsage {
  return {
    inputTokens: total.inputTokens + step.inputTokens,
    outputTokens: total.outputTokens + step.outputTokens,
    totalTokens: total.totalTokens + step.totalTokens,
  };
}

/**
 * A reply whose model answer has begun. `events()` yields its text as it
 * comes and, when the model calls tools, each call and its result, asking the
 * model again with the results (at most `maxSteps` rounds); then exactly one
 * `completed` (stored, with usage, model and latency) or `failed`. However it
 * ends, even when its reader stops reading because the client went away, the
 * provider call is ended, the exchange is stored (an interrupted one with
 * finishReason `aborted`), the circuit breaker hears the outcome and the
 * concurrency slot (held for the whole multi-step reply) is released: once.
 */
export class Reply {
  readonly started: MessageStartedView;
  #consumed = false;
  #counted = false;
  /** Images the reply's tools made so far. */
  #imagesOut = 0;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly agent: AgentRecord,
    private readonly exchange: Exchange,
    private readonly prompt: AssembledPrompt,
    private readonly model: OpenedModelStream,
    private readonly lease: ConcurrencyLease | null,
    private readonly tools: ToolLoop | null,
    private readonly run: RunLog,
  ) {
    this.started = {
      id: exchange.replyId,
      runId: exchange.runId,
      agentId: exchange.agentId,
      userId: exchange.userId,
      roomId: exchange.roomId,
      model: exchange.model,
      createdAt: new Date(exchange.startedAt).toISOString(),
    };
    run.record(startedEvent(this.started));
  }

  #estimatedUsage(text: string, steps: PromptMessage[]): TokenUsage {
    const inputTokens =
      this.prompt.estimatedInputTokens + estimateTokens(steps.length > 0 ? JSON.stringify(steps) : '');
    const outputTokens = estimateTokens(text);
    return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  }

  #store(
    text: string,
    finishReason: FinishReason,
    usage: TokenUsage,
    toolCalls: StoredToolCall[],
  ): Promise<MessageReplyView> {
    return storeExchange(this.ctx, this.exchange, { text, finishReason, usage, toolCalls });
  }

  /** Counts the message in its agent's metrics, once, however the reply ended. */
  #count(ending: MessageEnding): void {
    if (this.#counted) return;
    this.#counted = true;
    recordMessageMetrics(this.ctx, this.exchange, { ...ending, imagesOut: this.#imagesOut });
  }

  /**
   * The reply's events, each recorded in its run as it is yielded; the run's
   * outcome is stored when the reply ends, however it ends. An unexpected
   * error (a bug, the database lost) ends it with a `failed` event too, so
   * every reader sees the same last event.
   */
  async *events(): AsyncGenerator<RecordedReplyEvent, void, undefined> {
    if (this.#consumed) throw new Error('A reply can be read once');
    this.#consumed = true;
    const { run, ctx } = this;
    const messageId = this.started.id;
    let outcome: RunOutcome | null = null;
    const recorded = (event: ReplyEvent): RecordedReplyEvent => {
      const wire = wireEventOf(event, messageId, ctx.requestId);
      if (event.type === 'completed') {
        outcome = { status: 'completed', reply: event.reply, error: null };
        if (event.reply.finishReason === 'aborted') {
          outcome.status = run.stopReason === 'shutdown' ? 'failed' : 'cancelled';
          if (outcome.status === 'failed') outcome.error = problemBody(shutDown(), ctx.requestId);
        }
      } else if (event.type === 'failed') {
        outcome = { status: 'failed', reply: null, error: (wire.data as { error: Record<string, unknown> }).error };
      }
      return { ...event, seq: run.record(wire), wire };
    };
    try {
      for await (const event of this.#produce()) yield recorded(event);
    } catch (error) {
      ctx.deps.logger.error({ err: error, agentId: this.agent.id, requestId: ctx.requestId }, 'reply failed');
      yield recorded({ type: 'failed', error: unexpectedFailure(error) });
    } finally {
      // A reader that stopped early (its client went away) leaves the run cancelled.
      await ctx.deps.runs.finish(run, outcome ?? { status: 'cancelled', reply: null, error: null });
    }
  }

  async *#produce(): AsyncGenerator<ReplyEvent, void, undefined> {
    const { tools } = this;
    let model = this.model;
    /** The step whose model call is open (none while tools run): the one a failure is reported to. */
    let open: OpenedModelStream | null = model;
    let text = '';
    let usage: TokenUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    const toolCalls: StoredToolCall[] = [];
    /** The tool rounds of this reply so far, as the model is shown them on the next step. */
    const steps: PromptMessage[] = [];
    let settled = false;
    /** When the first text went to a streamed reply's client: its time to first token. */
    let firstTextTick: number | null = null;
    try {
      for (let step = 1; ; step += 1) {
        let stepText = '';
        const requested: ToolCallPart[] = [];
        let part = model.first;
        while (part.type !== 'finish') {
          if (part.type === 'text-delta') {
            text += part.text;
            stepText += part.text;
            if (firstTextTick === null && this.exchange.streamed) firstTextTick = performance.now();
            yield { type: 'delta', text: part.text };
          } else {
            requested.push(part);
          }
          const next = await model.next();
          if (next === null)
            throw new ProviderError('unavailable', 'The provider ended its answer without finishing it.');
          part = next;
        }
        model.ticket.succeeded();
        model.close();
        open = null;
        usage = addUsage(usage, part.usage);
        if (requested.length === 0 || tools === null) {
          settled = true;
          const finishReason = requested.length > 0 ? 'tool-calls' : part.finishReason;
          const reply = await this.#store(text, finishReason, usage, toolCalls);
          this.#count({ failure: null, completed: true, toolCalls: toolCalls.length, usage, firstTextTick });
          yield { type: 'completed', reply };
          return;
        }

        const results: StoredToolCall[] = [];
        for (const call of requested) {
          let result: StoredToolCall;
          if (toolCalls.length >= this.exchange.toolTurnIds.length) {
            result = {
              toolCallId: call.toolCallId,
              name: call.toolName,
              input: parsedToolInput(call.input),
              error: `This reply has made the most tool calls one reply may make (${this.exchange.toolTurnIds.length}).`,
              durationMs: 0,
            };
          } else {
            yield {
              type: 'tool-called',
              call: { toolCallId: call.toolCallId, name: call.toolName, input: parsedToolInput(call.input) },
            };
            try {
              result = await runToolCall(tools.toolbox, call, tools.limits, tools.signal, this.ctx.deps.logger);
            } catch (error) {
              if (error instanceof ToolCallAborted) toolCalls.push(error.call);
              throw new ProviderError('aborted', 'The reply was aborted while a tool ran.', { cause: error });
            }
            toolCalls.push(result);
            this.#imagesOut += result.attachments?.length ?? 0;
            yield { type: 'tool-completed', call: result };
          }
          results.push(result);
        }
        steps.push(...toolStepMessages(results, stepText));
        model = await tools.nextStep(steps, step < tools.maxSteps);
        open = model;
      }
    } catch (error) {
      // Only model failures are handled here; anything else (storage) is a bug or an outage of our own.
      if (settled || !(error instanceof ProviderError)) {
        settled = true;
        this.#count({ failure: 'internal', completed: false, toolCalls: toolCalls.length, usage, firstTextTick });
        throw error;
      }
      settled = true;
      const estimated = addUsage(usage, this.#estimatedUsage(text, steps));
      if (error.kind === 'aborted') {
        open?.ticket.released();
        this.#count({ failure: null, completed: false, toolCalls: toolCalls.length, usage, firstTextTick });
        yield { type: 'completed', reply: await this.#store(text, 'aborted', estimated, toolCalls) };
        return;
      }
      // A step that failed to open was already reported by the gateway.
      if (error.countsAgainstProvider) open?.ticket.failed();
      else open?.ticket.released();
      // What was said (and done) before the failure stays in the conversation, marked as such.
      this.#count({
        failure: failureTypeOf(error),
        completed: false,
        toolCalls: toolCalls.length,
        usage,
        firstTextTick,
      });
      if (text !== '' || toolCalls.length > 0) await this.#store(text, 'error', estimated, toolCalls);
      yield { type: 'failed', error: await appErrorForFailure(this.ctx, this.agent, error, this.exchange) };
    } finally {
      open?.close();
      if (!settled) {
        // The reader stopped early (its client went away while a part was waiting to be sent).
        this.#count({ failure: null, completed: false, toolCalls: toolCalls.length, usage, firstTextTick });
        open?.ticket.released();
        await this.#store(text, 'aborted', addUsage(usage, this.#estimatedUsage(text, steps)), toolCalls).catch(
          (error: unknown) =>
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

function shutDown(): AppError {
  return new AppError(
    'service_unavailable',
    'The instance producing this run shut down before it ended; what it said so far is stored. Send the message again.',
  );
}

/** What readers are told when a reply ends on an error of our own: no internals. */
function unexpectedFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isStoreUnavailable(error)) {
    return new AppError('service_unavailable', 'The database is unavailable right now; try again shortly.', {
      headers: { 'retry-after': '1' },
    });
  }
  return new AppError('internal', 'An unexpected error occurred; it has been logged with the request id.');
}

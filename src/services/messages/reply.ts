import { AppError, problemBody } from '../../errors.js';
import type { StoredToolCall } from '../../conversation/history-window.js';
import { toolStepMessages, type AssembledPrompt, type PromptMessage } from '../../conversation/prompt.js';
import { estimateTokens } from '../../conversation/tokens.js';
import { parsedToolInput, runToolCall, ToolCallAborted, type ToolLimits } from '../../conversation/tool-runner.js';
import type { ConcurrencyLease } from '../../limits/concurrency-limiter.js';
import type { Toolbox } from '../../plugins/toolsets.js';
import {
  addUsage,
  type FinishReason,
  type ModelStreamPart,
  type ToolCallPart,
  type TokenUsage,
} from '../../providers/model-adapter.js';
import type { OpenedModelStream } from '../../providers/model-gateway.js';
import { ProviderError } from '../../providers/provider-error.js';
import { receiveFrom, type Receiver, type ReceivingIterator } from '../../receiving-iterator.js';
import type { PendingApprovalView } from '../../schemas/approvals.js';
import type { MessageReplyView, MessageStartedView } from '../../schemas/messages.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { isStoreUnavailable } from '../../storage/store-unavailable.js';
import type { ServiceContext } from '../context.js';
import type { RunLog, SequencedEvent, WireEvent } from '../runs/run-log.js';
import type { RunOutcome } from '../runs/run-runtime.js';
import { deltaEvent, startedEvent, wireEventOf } from '../runs/wire-events.js';
import { pauseRun, type RequestedApproval } from '../approvals/pause-run.js';
import { deniedResult, type PausedCall, type ToolDecision } from '../approvals/paused-state.js';
import { discardKeptImages, storeExchange, type Exchange } from './exchange-store.js';
import { failureTypeOf, recordMessageMetrics, type MessageEnding } from './message-metrics.js';
import { appErrorForFailure } from './provider-failure.js';
import { RunJournal, type BeginEntry, type JournalExchange } from '../runs/run-journal.js';
import { hasSideEffects } from '../../plugins/side-effects.js';

export type ReplyEvent =
  | { type: 'delta'; text: string }
  | { type: 'tool-called'; call: Pick<StoredToolCall, 'toolCallId' | 'name' | 'input'> }
  | { type: 'tool-completed'; call: StoredToolCall }
  | { type: 'approval-requested'; approval: PendingApprovalView }
  | { type: 'completed'; reply: MessageReplyView }
  | { type: 'failed'; error: AppError };

/**
 * Where a resumed reply starts (docs/approvals.md): the tool rounds before the
 * one that paused, and the calls of that round, each with its result (it ran
 * before the pause) or the decision taken on it.
 */
export interface ResumeStart {
  steps: PromptMessage[];
  stepText: string;
  /**
   * `unknown`: a call with side effects that began on an instance that stopped before its end was recorded: it is
   * not run again, and the model is told its outcome is unknown. A call with no result, decision or `unknown` runs.
   */
  calls: Array<PausedCall & { decision?: ToolDecision; unknown?: boolean }>;
  step: number;
  /**
   * A run taken over from a stopped instance (src/services/runs/take-over-run.ts): what its completed steps said
   * and did, and where its journal goes on. `final`: its last model step asked for no tools, so the reply is
   * complete and is stored without asking the model again.
   */
  prior?: {
    text: string;
    toolCalls: StoredToolCall[];
    usage: TokenUsage;
    final: FinishReason | null;
    journalSeq: number;
  };
}

/** What the model reads as the result of a call whose outcome was lost with its instance. */
export const unknownOutcome =
  'The outcome of this call is unknown: the instance running it stopped before its end was recorded. It was not ' +
  'run again. Check whether it took effect before doing it again.';

/** A reply's event as recorded in its run: its sequence number (the SSE `id`) and how streams send it. */
export type RecordedReplyEvent = ReplyEvent & { seq: number; wire: WireEvent };

/** What `#produce` hands its reader at each model step: read this step's parts, then tell me how it ended. */
interface ReadStep {
  type: 'read-step';
  model: OpenedModelStream;
}

/** How a step read by the reader ended: its finish, the tool calls it asked for, and its text. */
interface StepEnd {
  finish: Extract<ModelStreamPart, { type: 'finish' }>;
  requested: ToolCallPart[];
  stepText: string;
}

type Producer = AsyncGenerator<ReplyEvent | ReadStep, void, StepEnd | undefined>;
type Produced = IteratorResult<ReplyEvent | ReadStep, void>;
/** A model step being read: the tool calls it asked for so far, and where its text starts in the reply's. */
interface Reading {
  model: OpenedModelStream;
  requested: ToolCallPart[];
  textFrom: number;
}
type Read = IteratorResult<RecordedReplyEvent, void>;
const readDone: Read = { done: true, value: undefined };

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
  /** The reply's text so far, over every step. */
  #text = '';
  /** When the first text went to a streamed reply's client: its time to first token. */
  #firstTextTick: number | null = null;
  /** The run's outcome, known from the last event read. */
  #outcome: RunOutcome | null = null;
  /** The error of a `failed` end, as its readers got it. */
  #failure: AppError | null = null;
  #producer: Producer | null = null;
  /** The model step the reader is reading itself (between a `read-step` and its finish). */
  #reading: Reading | null = null;
  /** The producer failed unexpectedly and its `failed` event was read: the next read ends the run. */
  #broken = false;
  /** The run's end (stored once, however the reading ended). */
  #finishing: Promise<Read> | null = null;
  /** The run's record of its steps (src/services/runs/run-journal.ts). */
  readonly #journal: RunJournal;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly agent: AgentRecord,
    private readonly exchange: Exchange,
    private readonly prompt: AssembledPrompt,
    /** The model's first step, opened; null for a resumed reply, whose first step follows its decided calls. */
    private readonly model: OpenedModelStream | null,
    private readonly lease: ConcurrencyLease | null,
    private readonly tools: ToolLoop | null,
    private readonly run: RunLog,
    private readonly resume: ResumeStart | null = null,
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
    // The round a resumed reply goes on with, as it was before this reply runs its calls.
    const base =
      resume !== null && resume.prior === undefined
        ? {
            steps: [...resume.steps],
            stepText: resume.stepText,
            calls: resume.calls.map((call) => ({ ...call })),
            step: resume.step,
          }
        : null;
    this.#journal = new RunJournal(
      exchange.runId,
      ctx.deps.repositories.runSteps,
      ctx.deps.runs,
      ctx.deps.clock,
      (): BeginEntry => ({
        version: 1,
        exchange: journalExchangeOf(exchange),
        prompt,
        base,
        tools:
          tools === null
            ? null
            : {
                offered: [...tools.toolbox.tools.values()].map(({ name, description, inputSchema }) => ({
                  name,
                  description,
                  inputSchema,
                })),
                maxSteps: tools.maxSteps,
              },
      }),
      resume?.prior?.journalSeq ?? 0,
    );
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

  /** Stores a completed reply's exchange and its run's end in one transaction. */
  #storeCompleted(
    text: string,
    finishReason: FinishReason,
    usage: TokenUsage,
    toolCalls: StoredToolCall[],
  ): Promise<MessageReplyView> {
    const { ctx, run } = this;
    return storeExchange(ctx, this.exchange, { text, finishReason, usage, toolCalls }, (reply) =>
      ctx.deps.runs.prepareEnd(
        run,
        { status: 'completed', reply, error: null },
        wireEventOf({ type: 'completed', reply }, reply.id, ctx.requestId),
      ),
    );
  }

  /** Counts the message in its agent's metrics, once, however the reply ended. */
  #count(ending: Omit<MessageEnding, 'firstTextTick' | 'imagesOut'>): void {
    if (this.#counted) return;
    this.#counted = true;
    recordMessageMetrics(this.ctx, this.exchange, {
      ...ending,
      imagesOut: this.#imagesOut,
      firstTextTick: this.#firstTextTick,
    });
  }

  /**
   * The reply's events, each recorded in its run as it is read; the run's
   * outcome is stored when the reply ends, however it ends (its reader may
   * stop early: `return`). An unexpected error (a bug, the database lost) ends
   * it with a `failed` event too, so every reader sees the same last event.
   *
   * Hand-written rather than an async generator around `#produce`: while a
   * step's text streams, each read is the model's `next()` and one mapping,
   * with handlers made once. A stream waiting for its next word then holds one
   * pending promise chain instead of each generator's request, frame and
   * await closures, made anew for every word (10,000 open streams hold 10,000
   * of them; bench/README.md, "Open streams").
   */
  events(): AsyncIterableIterator<RecordedReplyEvent> & ReceivingIterator<RecordedReplyEvent> {
    if (this.#consumed) throw new Error('A reply can be read once');
    this.#consumed = true;
    this.#producer = this.#produce();
    return {
      next: () => this.#read(),
      receive: (receiver) => this.#receive(receiver),
      return: () => this.#stopReading(),
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /**
   * Reads the reply to its end, handing each event to `onEvent` if given (a door that sends only the outcome
   * gives none), and resolves with how its run ended — the one mapping of a reply's end to its run's status
   * (an abort by shutdown is `failed`, by the client or a cancel `cancelled`, a pause `waiting`).
   */
  async outcome(
    onEvent?: (event: RecordedReplyEvent) => void | Promise<void>,
  ): Promise<{ status: RunOutcome['status']; reply: MessageReplyView | null; failure: AppError | null }> {
    for await (const event of this.events()) if (onEvent !== undefined) await onEvent(event);
    const outcome = this.#outcome ?? { status: 'cancelled' as const, reply: null, error: null };
    return { status: outcome.status, reply: outcome.reply, failure: this.#failure };
  }

  /** The reader's receiver while a `receive` waits. */
  #receiver: Receiver<Read> | null = null;

  /**
   * As `#read`, handing the event to `receiver`: while a step's text streams,
   * a waiting stream holds no promise of its own, only the model's receiver
   * (src/receiving-iterator.ts). Everything else goes through `#read`.
   */
  #receive(receiver: Receiver<Read>): void {
    const reading = this.#reading;
    if (reading === null || this.#finishing !== null || this.#broken) return receiveFrom(this.#read(), receiver);
    this.#receiver = receiver;
    reading.model.receive(this.#modelReceiver);
  }

  readonly #modelReceiver: Receiver<ModelStreamPart | null> = {
    received: (part) => this.#hand(this.#onPart(part)),
    failed: (error) => this.#hand(this.#onReadFailure(error)),
  };

  #hand(read: Read | Promise<Read>): void {
    const receiver = this.#receiver as Receiver<Read>;
    this.#receiver = null;
    if (read instanceof Promise) receiveFrom(read, receiver);
    else receiver.received(read);
  }

  #read(): Promise<Read> {
    if (this.#finishing !== null || this.#broken) return this.#finish();
    const reading = this.#reading;
    if (reading === null) return this.#resume(undefined);
    return reading.model.next().then(this.#onPart, this.#onReadFailure);
  }

  /**
   * The reader's handlers. A throw in them (a bug) must not leave `#produce`
   * waiting with the reply's concurrency slot and model call: it is closed,
   * and the reply ends with `failed` as any other error of ours.
   */
  readonly #onPart = (part: ModelStreamPart | null): Read | Promise<Read> => {
    try {
      return this.#part(part);
    } catch (error) {
      return this.#abandon(error);
    }
  };

  readonly #onProduced = (result: Produced): Read | Promise<Read> => {
    try {
      return this.#produced(result);
    } catch (error) {
      return this.#abandon(error);
    }
  };

  #abandon(error: unknown): Promise<Read> {
    this.#reading = null;
    const broken = () => this.#onBroken(error);
    return (this.#producer as Producer).return(undefined).then(broken, broken);
  }

  /** A part of the step being read: text is read out at once, tool calls are gathered, the finish resumes `#produce`. */
  #part(part: ModelStreamPart | null): Read | Promise<Read> {
    const reading = this.#reading;
    // The reader stopped (`return`) while this part was on its way.
    if (reading === null) return readDone;
    if (part === null) {
      return this.#onReadFailure(
        new ProviderError('unavailable', 'The provider ended its answer without finishing it.'),
      );
    }
    if (part.type === 'text-delta') {
      this.#text += part.text;
      if (this.#firstTextTick === null && this.exchange.streamed) this.#firstTextTick = performance.now();
      return { done: false, value: this.#recordedDelta(part.text) };
    }
    if (part.type === 'finish') {
      this.#reading = null;
      return this.#resume({ finish: part, requested: reading.requested, stepText: this.#text.slice(reading.textFrom) });
    }
    reading.requested.push(part);
    return this.#read();
  }

  /** The step's model failed: `#produce` hears it where it waits for the step's end. */
  readonly #onReadFailure = (error: unknown): Promise<Read> => {
    this.#reading = null;
    return (this.#producer as Producer).throw(error).then(this.#onProduced, this.#onBroken);
  };

  #resume(stepEnd: StepEnd | undefined): Promise<Read> {
    return (this.#producer as Producer).next(stepEnd).then(this.#onProduced, this.#onBroken);
  }

  #produced(result: Produced): Read | Promise<Read> {
    if (result.done === true) return this.#finish();
    const event = result.value;
    if (event.type !== 'read-step') return { done: false, value: this.#recorded(event) };
    this.#reading = { model: event.model, requested: [], textFrom: this.#text.length };
    return this.#part(event.model.first);
  }

  readonly #onBroken = (error: unknown): Read | Promise<Read> => {
    const { ctx } = this;
    const logged = { agentId: this.agent.id, requestId: ctx.requestId };
    ctx.deps.logger.error({ err: error, ...logged }, 'reply failed');
    this.#broken = true;
    try {
      return { done: false, value: this.#recorded({ type: 'failed', error: unexpectedFailure(error) }) };
    } catch (recordError) {
      // Not even its end could be recorded: the run is still finished.
      ctx.deps.logger.error({ err: recordError, ...logged }, 'reply failed');
      return this.#finish();
    }
  };

  /** The reader stopped early (its client went away): the producer cleans up, the run is left cancelled. */
  async #stopReading(): Promise<Read> {
    if (this.#finishing === null) {
      this.#reading = null;
      try {
        await (this.#producer as Producer).return(undefined);
      } finally {
        await this.#finish();
      }
    }
    return this.#finish();
  }

  /** Stores the run's outcome (cancelled when no last event told it), once. */
  #finish(): Promise<Read> {
    this.#finishing ??= this.ctx.deps.runs
      .finish(this.run, this.#outcome ?? { status: 'cancelled', reply: null, error: null })
      .then(() => readDone);
    return this.#finishing;
  }

  /**
   * A delta recorded in the run: as `#recorded` gives it, built in one step
   * (no event to spread), as it is made for every word of every open stream.
   */
  #recordedDelta(text: string): RecordedReplyEvent {
    const wire = deltaEvent(this.started.id, text);
    return { type: 'delta', text, seq: this.run.record(wire), wire };
  }

  /** The event recorded in the run; the last one (`completed` or `failed`) tells the run's outcome. */
  #recorded(event: ReplyEvent): RecordedReplyEvent {
    const { run, ctx } = this;
    const wire = wireEventOf(event, this.started.id, ctx.requestId);
    if (event.type === 'completed') {
      const outcome: RunOutcome = { status: 'completed', reply: event.reply, error: null };
      if (event.reply.finishReason === 'approval_required') outcome.status = 'waiting';
      if (event.reply.finishReason === 'aborted') {
        outcome.status = run.stopReason === 'shutdown' ? 'failed' : 'cancelled';
        if (outcome.status === 'failed') outcome.error = problemBody(shutDown(), ctx.requestId);
      }
      this.#outcome = outcome;
      if (run.ended) {
        // Its end was written with its exchange (#storeCompleted), which recorded this event last.
        const last = run.lastEvent as SequencedEvent;
        return { ...event, seq: last.seq, wire: last };
      }
    } else if (event.type === 'failed') {
      this.#failure = event.error;
      this.#outcome = {
        status: 'failed',
        reply: null,
        error: (wire.data as { error: Record<string, unknown> }).error,
      };
    }
    return { ...event, seq: run.record(wire), wire };
  }

  /** Runs one tool call the model asked for, yielding its events; the call is recorded in `toolCalls`. */
  async *#runCall(
    call: ToolCallPart,
    toolCalls: StoredToolCall[],
    decision?: ToolDecision,
  ): AsyncGenerator<ReplyEvent, StoredToolCall, unknown> {
    const tools = this.tools as ToolLoop;
    yield {
      type: 'tool-called',
      call: { toolCallId: call.toolCallId, name: call.toolName, input: parsedToolInput(call.input) },
    };
    let result: StoredToolCall;
    // A call with side effects is recorded before it runs: a takeover never repeats it blindly.
    const tool = tools.toolbox.tools.get(call.toolName);
    if (tool !== undefined && hasSideEffects(tool, parsedToolInput(call.input))) {
      await this.#journal.now({
        kind: 'tool-started',
        data: { toolCallId: call.toolCallId, name: call.toolName, input: call.input },
      });
    }
    // A step of the run as a span too (GenAI semantic conventions, `execute_tool`); inputs and outputs stay out.
    const span =
      this.ctx.deps.tracing?.startSpan(`execute_tool ${call.toolName}`, 'internal', {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.toolName,
        'gen_ai.tool.call.id': call.toolCallId,
        'gen_ai.conversation.id': this.exchange.runId,
      }) ?? null;
    try {
      result = await runToolCall(tools.toolbox, call, tools.limits, tools.signal, this.ctx.deps.logger, (detail) =>
        this.#journal.now({ kind: 'tool-intent', data: { toolCallId: call.toolCallId, detail } }),
      );
      if (result.error !== undefined) span?.setAttributes({ 'error.type': 'tool_error' });
    } catch (error) {
      span?.fail(error);
      if (error instanceof ToolCallAborted) toolCalls.push(error.call);
      throw new ProviderError('aborted', 'The reply was aborted while a tool ran.', { cause: error });
    } finally {
      span?.end();
    }
    if (decision !== undefined) result = { ...result, approval: decision };
    await this.#journal.now({ kind: 'tool', data: { call: result } });
    toolCalls.push(result);
    this.#imagesOut += result.attachments?.length ?? 0;
    yield { type: 'tool-completed', call: result };
    return result;
  }

  /**
   * The start of a resumed reply: the calls of the round that paused, in the
   * model's order: those that ran before the pause as they ran, approved ones
   * run now, denied or expired ones are told so (and never run). Returns the
   * tool rounds to ask the model again with.
   */
  async *#resumeRound(start: ResumeStart, toolCalls: StoredToolCall[]): AsyncGenerator<ReplyEvent, void, unknown> {
    const results: StoredToolCall[] = [];
    if (start.calls.length === 0) return;
    for (const call of start.calls) {
      if (call.result !== undefined) {
        results.push(call.result);
        continue;
      }
      const part: ToolCallPart = {
        type: 'tool-call',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: call.input,
      };
      if (call.unknown === true) {
        const unknown: StoredToolCall = {
          toolCallId: call.toolCallId,
          name: call.toolName,
          input: parsedToolInput(call.input),
          error: unknownOutcome,
          durationMs: 0,
          ...(call.decision !== undefined ? { approval: call.decision } : {}),
        };
        await this.#journal.now({ kind: 'tool', data: { call: unknown } });
        toolCalls.push(unknown);
        yield { type: 'tool-completed', call: unknown };
        results.push(unknown);
        continue;
      }
      const decision = call.decision;
      if (decision === undefined) {
        // A takeover: the call had not begun (or has no side effects), so it runs now.
        results.push(yield* this.#runCall(part, toolCalls));
        continue;
      }
      if (decision.status === 'approved') {
        results.push(yield* this.#runCall(part, toolCalls, decision));
        continue;
      }
      const denied: StoredToolCall = {
        toolCallId: call.toolCallId,
        name: call.toolName,
        input: parsedToolInput(call.input),
        error: deniedResult(decision),
        durationMs: 0,
        approval: decision,
      };
      await this.#journal.now({ kind: 'tool', data: { call: denied } });
      toolCalls.push(denied);
      yield { type: 'tool-completed', call: denied };
      results.push(denied);
    }
    start.steps.push(...toolStepMessages(results, start.stepText));
  }

  /**
   * Stores a reply that paused for approvals: the exchange so far (finishReason
   * `approval_required`), then its state and pending approvals, and yields a
   * `tool.approval_requested` event for each.
   */
  async *#pause(
    text: string,
    usage: TokenUsage,
    toolCalls: StoredToolCall[],
    steps: PromptMessage[],
    stepText: string,
    calls: PausedCall[],
    requested: RequestedApproval[],
    step: number,
  ): AsyncGenerator<ReplyEvent, MessageReplyView, unknown> {
    const stored = await this.#store(text, 'approval_required', usage, toolCalls);
    const { exchange } = this;
    const approvals = await pauseRun(
      this.ctx,
      { runId: exchange.runId, agentId: exchange.agentId },
      {
        version: 1,
        text: exchange.text,
        userId: exchange.userId,
        roomId: exchange.roomId,
        conversation: exchange.conversation,
        prompt: this.prompt,
        steps,
        stepText,
        calls,
        step,
        origin: exchange.origin ?? null,
      },
      requested,
    );
    for (const approval of approvals) yield { type: 'approval-requested', approval };
    return { ...stored, approvals };
  }

  /**
   * The reply's steps. A model step's parts are read by the reader
   * (`read-step`, see `events`), which resumes this with the step's end, or
   * throws the model's failure in here.
   */
  async *#produce(): Producer {
    const { tools } = this;
    let model = this.model as OpenedModelStream;
    /** The step whose model call is open (none while tools run): the one a failure is reported to. */
    let open: OpenedModelStream | null = this.model;
    let usage: TokenUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    const toolCalls: StoredToolCall[] = [];
    /** The tool rounds of this reply so far, as the model is shown them on the next step. */
    const steps: PromptMessage[] = [];
    let settled = false;
    let firstStep = 1;
    try {
      const prior = this.resume?.prior;
      if (prior !== undefined) {
        this.#text = prior.text;
        usage = prior.usage;
        toolCalls.push(...prior.toolCalls);
        if (prior.final !== null) {
          // Its last model step had answered: the reply is stored as it was, the model not asked again.
          settled = true;
          const reply = await this.#storeCompleted(this.#text, prior.final, usage, toolCalls);
          this.#count({ failure: null, completed: true, toolCalls: toolCalls.length, usage });
          yield { type: 'completed', reply };
          return;
        }
      }
      if (this.resume !== null && tools !== null) {
        yield* this.#resumeRound(this.resume, toolCalls);
        steps.push(...this.resume.steps);
        firstStep = this.resume.step + 1;
        model = await tools.nextStep(steps, this.resume.step < tools.maxSteps);
        open = model;
      }
      for (let step = firstStep; ; step += 1) {
        const { finish, requested, stepText } = (yield { type: 'read-step', model }) as StepEnd;
        model.ticket.succeeded();
        model.close();
        open = null;
        usage = addUsage(usage, finish.usage);
        const final = requested.length === 0 || tools === null;
        const recorded = {
          kind: 'model' as const,
          data: {
            step,
            text: stepText,
            finishReason: final && requested.length > 0 ? ('tool-calls' as const) : finish.finishReason,
            usage: finish.usage,
            calls: final
              ? []
              : requested.map((call) => ({ toolCallId: call.toolCallId, toolName: call.toolName, input: call.input })),
            model: this.exchange.model,
            ...stepTiming(model),
          },
        };
        // The last step is made durable by the stored reply: it is recorded with the runtime's next flush, off the
        // reply's path; one that asked for tools is written before they run.
        if (final) this.#journal.later(recorded);
        else await this.#journal.now(recorded);
        if (final) {
          settled = true;
          const finishReason = requested.length > 0 ? 'tool-calls' : finish.finishReason;
          const reply = await this.#storeCompleted(this.#text, finishReason, usage, toolCalls);
          this.#count({ failure: null, completed: true, toolCalls: toolCalls.length, usage });
          yield { type: 'completed', reply };
          return;
        }

        const results: StoredToolCall[] = [];
        /** The calls of this round in the model's order, should it pause for approvals. */
        const calls: PausedCall[] = [];
        const awaiting: RequestedApproval[] = [];
        for (const call of requested) {
          let result: StoredToolCall;
          const approval = tools.toolbox.approvals.get(call.toolName);
          if (toolCalls.length >= this.exchange.toolTurnIds.length) {
            result = {
              toolCallId: call.toolCallId,
              name: call.toolName,
              input: parsedToolInput(call.input),
              error: `This reply has made the most tool calls one reply may make (${this.exchange.toolTurnIds.length}).`,
              durationMs: 0,
            };
            await this.#journal.now({ kind: 'tool', data: { call: result } });
          } else if (approval !== undefined) {
            // Not run: it waits for a person's decision, taken after this reply has ended.
            calls.push({ toolCallId: call.toolCallId, toolName: call.toolName, input: call.input });
            awaiting.push({
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              input: parsedToolInput(call.input),
              expiresAfterSeconds: approval.expiresAfterSeconds,
            });
            continue;
          } else {
            result = yield* this.#runCall(call, toolCalls);
          }
          calls.push({ toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, result });
          results.push(result);
        }
        if (awaiting.length > 0) {
          settled = true;
          const reply = yield* this.#pause(this.#text, usage, toolCalls, steps, stepText, calls, awaiting, step);
          this.#count({ failure: null, completed: true, toolCalls: toolCalls.length, usage });
          yield { type: 'completed', reply };
          return;
        }
        steps.push(...toolStepMessages(results, stepText));
        model = await tools.nextStep(steps, step < tools.maxSteps);
        open = model;
      }
    } catch (error) {
      // Only model failures are handled here; anything else (storage) is a bug or an outage of our own.
      if (settled || !(error instanceof ProviderError)) {
        // A step cut short was billed all the same: the spend limits count it as the stored reply does.
        if (!settled) this.exchange.spend?.use(addUsage(usage, this.#estimatedUsage(this.#text, steps)));
        settled = true;
        this.#count({ failure: 'internal', completed: false, toolCalls: toolCalls.length, usage });
        throw error;
      }
      settled = true;
      const estimated = addUsage(usage, this.#estimatedUsage(this.#text, steps));
      this.exchange.spend?.use(estimated);
      if (error.kind === 'aborted') {
        open?.ticket.released();
        this.#count({ failure: null, completed: false, toolCalls: toolCalls.length, usage });
        yield { type: 'completed', reply: await this.#store(this.#text, 'aborted', estimated, toolCalls) };
        return;
      }
      // A step that failed to open was already reported by the gateway.
      if (error.countsAgainstProvider) open?.ticket.failed();
      else open?.ticket.released();
      // What was said (and done) before the failure stays in the conversation, marked as such.
      this.#count({ failure: failureTypeOf(error), completed: false, toolCalls: toolCalls.length, usage });
      if (this.#text !== '' || toolCalls.length > 0) await this.#store(this.#text, 'error', estimated, toolCalls);
      else await discardKeptImages(this.ctx, this.exchange);
      yield { type: 'failed', error: await appErrorForFailure(this.ctx, this.agent, error, this.exchange) };
    } finally {
      open?.close();
      if (!settled) {
        // The reader stopped early (its client went away while a part was waiting to be sent).
        const estimated = addUsage(usage, this.#estimatedUsage(this.#text, steps));
        this.exchange.spend?.use(estimated);
        this.#count({ failure: null, completed: false, toolCalls: toolCalls.length, usage });
        open?.ticket.released();
        await this.#store(this.#text, 'aborted', estimated, toolCalls).catch((error: unknown) =>
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

/** A model step's timing as its journal entry keeps it: from the call (before any retry) to now. */
function stepTiming(model: OpenedModelStream): {
  startedAt: string;
  durationMs: number;
  firstTokenMs: number;
  retries: number;
} {
  const now = performance.now();
  return {
    startedAt: new Date(Date.now() - (now - model.calledTick)).toISOString(),
    durationMs: Math.round(now - model.calledTick),
    firstTokenMs: Math.round(model.openedTick - model.calledTick),
    retries: model.retries,
  };
}

/** The exchange as a run's journal keeps it: what a takeover needs to store the same reply. */
function journalExchangeOf(exchange: Exchange): JournalExchange {
  const {
    spend: _spend,
    keptImages: _kept,
    attachments: _attachments,
    startedTick: _tick,
    streamed: _streamed,
    ...kept
  } = exchange;
  return kept;
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

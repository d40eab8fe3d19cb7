import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { abortableDelay } from './abortable-delay.js';
import type { ProviderName } from './catalog.js';
import { CircuitBreaker, type CircuitSettings, type CircuitTicket } from './circuit-breaker.js';
import type { ModelAdapter, ModelCall, ModelStreamPart } from './model-adapter.js';
import type { ModelCallMetrics, ModelCallOutcome } from './model-call-metrics.js';
import { ProviderError, toProviderError } from './provider-error.js';
import { canReceive, receiveFrom, type Receiver } from '../receiving-iterator.js';

/**
 * The policy around every model call (contract §6): a time-out to the first
 * part, at most `maxRetries` retries with exponential backoff for retryable
 * failures before anything reached the client, the same time-out for silence
 * in the middle of an answer, and a circuit breaker per provider.
 */
export interface GatewaySettings {
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  circuit: CircuitSettings;
}

const ignore = () => undefined;
const uncountedTicket: CircuitTicket = { succeeded: ignore, failed: ignore, released: ignore };

/** Seconds a client is told to wait after a failure that named no time of its own. */
const defaultRetryAfterSeconds = 2;

/**
 * The time-out of one model call: a single timer, pushed back by every part
 * that arrives, that aborts the call when the provider stays silent for
 * `timeoutMs` (one timer per call, not one per part).
 */
class SilenceWatchdog {
  #expired = false;
  readonly #timer: NodeJS.Timeout;

  constructor(timeoutMs: number, controller: AbortController) {
    this.#timer = setTimeout(() => {
      this.#expired = true;
      controller.abort();
    }, timeoutMs);
  }

  get expired(): boolean {
    return this.#expired;
  }

  heard(): void {
    this.#timer.refresh();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }
}

/** Reports one model call's duration and outcome once, and its tokens when it finishes. */
class CallObservation {
  #settled = false;
  constructor(
    private readonly metrics: ModelCallMetrics | null,
    private readonly provider: string,
    private readonly startedTick: number,
  ) {}

  settle(outcome: ModelCallOutcome, part?: ModelStreamPart): void {
    if (this.#settled || this.metrics === null) return;
    this.#settled = true;
    this.metrics.observe(this.provider, outcome, (performance.now() - this.startedTick) / 1000);
    if (part?.type === 'finish') this.metrics.countTokens(this.provider, part.usage);
  }
}

/** A model answer whose first part has arrived; the rest is read with `next()`. */
export class OpenedModelStream {
  constructor(
    readonly first: ModelStreamPart,
    private readonly iterator: AsyncIterator<ModelStreamPart>,
    private readonly controller: AbortController,
    private readonly watchdog: SilenceWatchdog,
    private readonly clientSignal: AbortSignal,
    private readonly timeoutMs: number,
    private readonly provider: string,
    private readonly detach: () => void,
    /** Report the reply's outcome here: it is what the circuit breaker counts. */
    readonly ticket: CircuitTicket,
    private readonly observation: CallObservation,
  ) {
    if (first.type === 'finish') observation.settle('success', first);
  }

  #ended = false;
  /** Attempts that failed before this one answered (the run's steps show them). */
  retries = 0;
  /** When the call was made, before any retry (performance.now()). */
  calledTick = performance.now();
  /** When the answer's first part came: the step's time to first token is this less `calledTick`. */
  readonly openedTick = performance.now();

  /** The answer's next part, or null when it ended without a finish (the `for await` readers' way in). */
  next(): Promise<ModelStreamPart | null> {
    return new Promise((resolve, reject) => this.receive({ received: resolve, failed: reject }));
  }

  /**
   * As `next()`, handing the part to `receiver`, through handlers made once:
   * from an answer that can `receive` (the Chat Completions model's), a stream
   * waiting for its next word holds no promise at all
   * (src/receiving-iterator.ts); from any other, one promise of the answer's.
   */
  receive(receiver: Receiver<ModelStreamPart | null>): void {
    this.#receiver = receiver;
    const { iterator } = this;
    try {
      if (canReceive(iterator)) iterator.receive(this.#answerReceiver);
      else receiveFrom(iterator.next(), this.#answerReceiver);
    } catch (error) {
      this.#answerReceiver.failed(error);
    }
  }

  #receiver: Receiver<ModelStreamPart | null> | null = null;

  readonly #answerReceiver: Receiver<IteratorResult<ModelStreamPart>> = {
    received: (result) => {
      const receiver = this.#receiver as Receiver<ModelStreamPart | null>;
      let part: ModelStreamPart | null;
      try {
        part = this.#received(result);
      } catch (error) {
        receiver.failed(error);
        return;
      }
      receiver.received(part);
    },
    failed: (error) => {
      const receiver = this.#receiver as Receiver<ModelStreamPart | null>;
      let failure: unknown;
      try {
        const providerError = this.#failure(error);
        this.observation.settle(providerError.kind);
        failure = providerError;
      } catch (unexpected) {
        failure = unexpected;
      }
      receiver.failed(failure);
    },
  };

  #received(result: IteratorResult<ModelStreamPart>): ModelStreamPart | null {
    this.watchdog.heard();
    if (result.done) {
      this.#ended = true;
      this.observation.settle('unavailable');
      return null;
    }
    if (result.value.type === 'finish') {
      this.#ended = true;
      this.observation.settle('success', result.value);
    }
    return result.value;
  }

  #failure(error: unknown): ProviderError {
    if (this.clientSignal.aborted) return new ProviderError('aborted', 'The model call was aborted.', { cause: error });
    if (this.watchdog.expired) {
      return new ProviderError(
        'timeout',
        `The provider ${this.provider} went silent for ${this.timeoutMs} ms in the middle of its answer.`,
        { isRetryable: true },
      );
    }
    return toProviderError(error, this.provider, '');
  }

  /** Ends the provider call (a no-op when it already ended) and lets go of the client's signal. */
  close(): void {
    // Closed before its finish: the reader stopped (the client went away, or a tool round was cut short).
    this.observation.settle('aborted');
    this.watchdog.stop();
    // Aborting a finished call would only build an AbortError nobody reads.
    if (!this.#ended && this.first.type !== 'finish') this.controller.abort();
    this.detach();
  }
}

export class ModelGateway {
  readonly #breakers = new Map<string, CircuitBreaker>();

  constructor(
    private readonly adapters: ReadonlyMap<ProviderName, ModelAdapter>,
    private readonly settings: GatewaySettings,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Where call durations and tokens are counted for Prometheus; none in tests that build a gateway alone. */
    private readonly metrics: ModelCallMetrics | null = null,
  ) {}

  circuitOf(provider: ProviderName): CircuitBreaker {
    let breaker = this.#breakers.get(provider);
    if (breaker === undefined) {
      breaker = new CircuitBreaker(this.settings.circuit, this.clock, (state) =>
        this.logger.warn({ provider, circuit: state }, `circuit of provider ${provider} is ${state}`),
      );
      this.#breakers.set(provider, breaker);
    }
    return breaker;
  }

  /**
   * Starts a model call and resolves when its first part arrives. Throws a
   * ProviderError when the circuit is open, when every attempt failed, or
   * when `signal` (the client) aborted.
   */
  async open(
    provider: ProviderName,
    call: Omit<ModelCall, 'abortSignal'>,
    signal: AbortSignal,
    options: { background?: boolean } = {},
  ): Promise<OpenedModelStream> {
    const adapter = this.adapters.get(provider);
    if (adapter === undefined)
      throw new ProviderError('unavailable', `The provider ${provider} is not enabled on this server.`);
    const calledTick = performance.now();
    const observation = new CallObservation(this.metrics, provider, calledTick);
    const admission = this.circuitOf(provider).admit();
    if (!admission.admitted) {
      observation.settle('circuit-open');
      throw new ProviderError(
        'circuit-open',
        `The provider ${provider} failed repeatedly; agentd is not calling it for a while.`,
        {
          retryAfterSeconds: Math.max(1, Math.ceil(admission.retryAfterMs / 1000)),
        },
      );
    }
    // Background work (memory upkeep) is refused while the circuit is open, but its outcome is not counted:
    // a failing summarization must never open the circuit, and with it fail the replies.
    if (options.background) admission.ticket.released();
    const ticket = options.background ? uncountedTicket : admission.ticket;
    const { timeoutMs, maxRetries, retryDelayMs } = this.settings;

    for (let attempt = 0; ; attempt += 1) {
      const controller = new AbortController();
      const abort = () => controller.abort();
      signal.addEventListener('abort', abort, { once: true });
      const detach = () => signal.removeEventListener('abort', abort);
      if (signal.aborted) controller.abort();
      const watchdog = new SilenceWatchdog(timeoutMs, controller);
      const iterator = adapter.stream({ ...call, abortSignal: controller.signal })[Symbol.asyncIterator]();
      let failure: ProviderError;
      try {
        const first = await iterator.next();
        watchdog.heard();
        if (!first.done) {
          const opened = new OpenedModelStream(
            first.value,
            iterator,
            controller,
            watchdog,
            signal,
            timeoutMs,
            provider,
            detach,
            ticket,
            observation,
          );
          opened.retries = attempt;
          opened.calledTick = calledTick;
          return opened;
        }
        failure = new ProviderError('unavailable', `The provider ${provider} ended its answer before it began.`, {
          isRetryable: true,
        });
      } catch (error) {
        failure =
          watchdog.expired && !signal.aborted
            ? new ProviderError('timeout', `The provider ${provider} sent nothing within ${timeoutMs} ms.`, {
                isRetryable: true,
              })
            : toProviderError(error, provider, call.modelName);
      }
      watchdog.stop();
      controller.abort();
      detach();
      if (signal.aborted) {
        observation.settle('aborted');
        ticket.released();
        throw new ProviderError('aborted', 'The model call was aborted.', { cause: failure });
      }
      const delayMs = retryDelayMs * 2 ** attempt;
      // A provider that names a later time (429 or 503 with Retry-After) will not serve sooner: asking again
      // now only spends its quota and the client's time, so the client is told to wait instead.
      const askedToWait = failure.retryAfterSeconds !== undefined && failure.retryAfterSeconds * 1000 > delayMs;
      if (failure.isRetryable && attempt < maxRetries && !askedToWait) {
        this.logger.debug({ provider, attempt: attempt + 1, reason: failure.message }, 'retrying model call');
        await abortableDelay(delayMs, signal);
        continue;
      }
      if (failure.countsAgainstProvider) ticket.failed();
      else ticket.released();
      observation.settle(failure.kind);
      throw failure;
    }
  }

  /** The Retry-After a client gets for this failure. */
  static retryAfterSeconds(failure: ProviderError): number {
    return Math.min(3600, Math.max(1, failure.retryAfterSeconds ?? defaultRetryAfterSeconds));
  }
}

import type { Logger } from 'pino';

/**
 * Shutting down without dropping work: stop accepting connections, let running
 * requests and streams finish up to a deadline, then end what is left.
 *
 * Long-running responses (streamed replies) register with `beginStream(endNow)`;
 * `endNow` is called when the deadline passes, so a stream can finish its
 * reply properly (a last event, its stored turn, its released concurrency
 * slot) in the short grace that follows, instead of having its connection cut
 * in the middle of an event.
 */
export interface StreamRegistration {
  /** Call once the response has ended. */
  end(): void;
}

/** What the shutdown needs of the HTTP server (Fastify's `close()` and Node's connection controls). */
export interface DrainableServer {
  /** Stops accepting connections; resolves when every open one has ended. */
  close(): Promise<void>;
  closeIdleConnections(): void;
  closeAllConnections(): void;
}

export interface GracefulShutdownOptions {
  /** After the deadline, how long streams get to end themselves before connections are cut (default 1000 ms). */
  endGraceMs?: number;
  /** How often connections that became idle during the drain are closed (default 100 ms). */
  idleSweepMs?: number;
}

function delay(milliseconds: number): { promise: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, milliseconds);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

export class GracefulShutdown {
  readonly #logger: Logger;
  readonly #endGraceMs: number;
  readonly #idleSweepMs: number;
  /** Each stream in flight, by the function that ends it (called, not listened for: thousands of streams would be thousands of listeners on one signal). */
  readonly #streams = new Map<StreamRegistration, () => void>();
  #deadlinePassed = false;
  #draining = false;
  #hurry: (() => void) | null = null;

  constructor(logger: Logger, options: GracefulShutdownOptions = {}) {
    this.#logger = logger;
    this.#endGraceMs = options.endGraceMs ?? 1000;
    this.#idleSweepMs = options.idleSweepMs ?? 100;
  }

  /** True from the moment a shutdown starts: responses then close their connection. */
  get draining(): boolean {
    return this.#draining;
  }

  get streamsInFlight(): number {
    return this.#streams.size;
  }

  /** Registers a stream; `endNow` is called when the deadline passes (at once, if it already has). */
  beginStream(endNow: () => void): StreamRegistration {
    const registration: StreamRegistration = {
      end: () => {
        this.#streams.delete(registration);
      },
    };
    if (this.#deadlinePassed) endNow();
    else this.#streams.set(registration, endNow);
    return registration;
  }

  /** Moves the deadline to now (a second signal from an impatient operator). */
  hurry(): void {
    this.#hurry?.();
  }

  /**
   * Drains `server`: resolves once every connection has ended, by the deadline
   * or, past it, after streams were told to end and the rest were closed.
   */
  async drain(server: DrainableServer, timeoutMs: number): Promise<{ timedOut: boolean }> {
    this.#draining = true;
    const closed = server.close();
    // A connection whose request ends during the drain is closed as soon as it is idle.
    const sweeper = setInterval(() => server.closeIdleConnections(), this.#idleSweepMs);
    const timer = delay(timeoutMs);
    const hurried = new Promise<void>((resolve) => {
      this.#hurry = resolve;
    });
    try {
      const inTime = await Promise.race([
        closed.then(() => true),
        timer.promise.then(() => false),
        hurried.then(() => false),
      ]);
      if (inTime) return { timedOut: false };

      this.#logger.warn(
        { streams: this.#streams.size },
        'shutdown deadline passed: ending streams and closing remaining connections',
      );
      this.#deadlinePassed = true;
      for (const endNow of [...this.#streams.values()]) endNow();
      const grace = delay(this.#endGraceMs);
      const ended = await Promise.race([closed.then(() => true), grace.promise.then(() => false)]);
      grace.cancel();
      if (!ended) server.closeAllConnections();
      await closed;
      return { timedOut: true };
    } finally {
      timer.cancel();
      clearInterval(sweeper);
      this.#hurry = null;
    }
  }
}

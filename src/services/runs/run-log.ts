/**
 * The events of one run as this instance produces them. Each event gets the
 * next sequence number (its SSE `id`), is handed at once to the readers
 * streaming the run from this instance, and is written to the database in
 * batches (by the runtime's flush, every few tens of milliseconds) so that a
 * reader on any instance can replay the run after a `Last-Event-ID`.
 */

/** An event as the stream sends it: `event:` name and JSON `data`. */
export interface WireEvent {
  event: string;
  data: unknown;
}

export interface SequencedEvent extends WireEvent {
  /** 1, 2, 3…: the SSE `id`. */
  seq: number;
}

export type RunListener = (event: SequencedEvent | null) => void;

/** Why a run's work was stopped before it ended on its own. */
export type StopReason = 'cancelled' | 'client-gone' | 'shutdown';

export class RunLog {
  /** Every event of the run so far, for readers that join while it runs on this instance. */
  readonly events: SequencedEvent[] = [];
  /** Events not yet handed to the database: the index in `events` of the first one. */
  unflushedFrom = 0;
  #listeners = new Set<RunListener>();
  #ended = false;
  readonly #controller = new AbortController();
  #stopReason: StopReason | null = null;

  constructor(
    readonly runId: string,
    readonly accountId: string,
    readonly agentId: string,
    /** Resolved once the run's row exists: batches are written after it. */
    public stored: Promise<void>,
  ) {}

  get ended(): boolean {
    return this.#ended;
  }

  get lastSeq(): number {
    return this.events.length;
  }

  /** Aborted when the run is cancelled, its client goes away (foreground runs) or the instance shuts down. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get stopReason(): StopReason | null {
    return this.#stopReason;
  }

  stop(reason: StopReason): void {
    if (this.#stopReason !== null || this.#ended) return;
    this.#stopReason = reason;
    this.#controller.abort();
  }

  record(event: WireEvent): number {
    const sequenced = { seq: this.events.length + 1, event: event.event, data: event.data };
    this.events.push(sequenced);
    for (const listener of this.#listeners) listener(sequenced);
    return sequenced.seq;
  }

  /** The events not yet written, taken out for a batch. */
  takeUnflushed(): SequencedEvent[] {
    const batch = this.events.slice(this.unflushedFrom);
    this.unflushedFrom = this.events.length;
    return batch;
  }

  /**
   * Hands every event after `afterSeq` to `listener` now and every later one
   * as it comes, then `null` when the run has ended. Returns the unsubscribe.
   */
  follow(afterSeq: number, listener: RunListener): () => void {
    for (const event of this.events.slice(afterSeq)) listener(event);
    if (this.#ended) {
      listener(null);
      return () => {};
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called once the run's outcome is stored: readers get the end of the stream. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const listener of this.#listeners) listener(null);
    this.#listeners.clear();
  }
}

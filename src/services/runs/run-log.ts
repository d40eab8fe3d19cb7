/**
 * The events of one run as this instance produces them. Each event gets the
 * next sequence number (its SSE `id`), is handed at once to the readers
 * streaming the run from this instance, and is written to the database in
 * batches (by the runtime's flush, every few tens of milliseconds) so that a
 * reader on any instance can replay the run after a `Last-Event-ID`. Once
 * written, events leave memory.
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
  /**
   * The run's events not yet known to be in the database: those written are
   * dropped (`written`), so a long run holds only its last few tens of
   * milliseconds of events, however long it streams. `#base` events came before them.
   */
  #events: SequencedEvent[] = [];
  #base = 0;
  /** Events up to this sequence number were handed to a batch (written, or being written). */
  #handed = 0;
  #listeners = new Set<RunListener>();
  #ended = false;
  readonly #controller = new AbortController();
  #stopReason: StopReason | null = null;

  constructor(
    readonly runId: string,
    readonly accountId: string,
    readonly agentId: string,
    /** Resolved once the run's row exists: batches are written after it. */
    readonly stored: Promise<void>,
    /** Told whenever the log has events to write: the runtime's flush visits only those logs. */
    private readonly onUnwritten: (log: RunLog) => void = () => {},
    /** A run taken over from a stopped instance goes on after the events it stored. */
    after = 0,
  ) {
    this.#base = after;
    this.#handed = after;
    stored.then(
      () => (this.#isStored = true),
      () => undefined,
    );
  }

  #isStored = false;

  /** `stored` has resolved: a flush writes this run's events without waiting for it. */
  get isStored(): boolean {
    return this.#isStored;
  }

  get ended(): boolean {
    return this.#ended;
  }

  get lastSeq(): number {
    return this.#base + this.#events.length;
  }

  /** The last event recorded, if it is still held. */
  get lastEvent(): SequencedEvent | undefined {
    return this.#events[this.#events.length - 1];
  }

  /** Whether events wait to be handed to a batch. */
  get hasUnwritten(): boolean {
    return this.#handed < this.lastSeq;
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
    const sequenced = { seq: this.lastSeq + 1, event: event.event, data: event.data };
    this.#events.push(sequenced);
    this.onUnwritten(this);
    // Checked first: iterating even an empty set makes an iterator, once per word of every open stream.
    if (this.#listeners.size > 0) for (const listener of this.#listeners) listener(sequenced);
    return sequenced.seq;
  }

  /**
   * The events not yet handed to a batch, taken out for one, and the point to
   * go back to (`untake`) when the batch could not be written.
   */
  takeUnwritten(): { events: SequencedEvent[]; from: number } {
    const from = this.#handed;
    const events = this.#events.slice(from - this.#base);
    this.#handed = this.lastSeq;
    return { events, from };
  }

  /** A batch taken after `from` was not written: its events are taken again by the next. */
  untake(from: number): void {
    this.#handed = Math.min(this.#handed, from);
    if (this.hasUnwritten) this.onUnwritten(this);
  }

  /** The events up to `seq` are in the database: readers that join later read them there. */
  written(seq: number): void {
    const drop = Math.min(seq, this.#handed) - this.#base;
    if (drop <= 0) return;
    this.#events.splice(0, drop);
    this.#base += drop;
  }

  /**
   * Hands every event after `afterSeq` to `listener` now and every later one
   * as it comes, then `null` when the run has ended. Returns the unsubscribe,
   * or null when events after `afterSeq` are no longer held here (they are in
   * the database: read them there first).
   */
  follow(afterSeq: number, listener: RunListener): (() => void) | null {
    if (afterSeq < this.#base) return null;
    // A reader past this log's last event saw events that a stopped instance sent and never stored, before this
    // instance took the run over and numbered on from the stored ones: it gets only the events after its own.
    const reader: RunListener =
      afterSeq > this.lastSeq
        ? (event) => {
            if (event === null || event.seq > afterSeq) listener(event);
          }
        : listener;
    for (const event of this.#events.slice(afterSeq - this.#base)) reader(event);
    if (this.#ended) {
      reader(null);
      return () => {};
    }
    this.#listeners.add(reader);
    return () => this.#listeners.delete(reader);
  }

  /** Called once the run's outcome is stored: readers get the end of the stream. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const listener of this.#listeners) listener(null);
    this.#listeners.clear();
  }
}

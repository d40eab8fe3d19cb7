import type { Logger } from 'pino';
import type { RunSettings } from '../../config.js';
import { isoTime, type Clock } from '../../clock.js';
import type { MessageReplyView } from '../../schemas/messages.js';
import type { RunStatus } from '../../schemas/runs.js';
import type { RunEventBatch, RunFinish, RunRepository, RunRow } from '../../storage/repositories/runs.js';
import type { NewRunStep, RunStepRepository } from '../../storage/repositories/run-steps.js';
import type { ApprovalRepository } from '../../storage/repositories/approvals.js';
import type { Database } from '../../storage/schema.js';
import type { Kysely, Transaction } from 'kysely';
import { RunLog, type SequencedEvent, type WireEvent } from './run-log.js';

/** A run's end, written by its caller's transaction (see `RunRuntime.prepareEnd`). */
export interface RunEnding {
  /**
   * The same end as rows, for a caller that writes it in a statement of its
   * own (RunRepository.completeReply); null when ending takes more than its row and
   * events (a run that paused for approvals).
   */
  readonly rows: { runId: string; finish: RunFinish; events: RunEventBatch | null } | null;
  write(transaction: Transaction<Database>): Promise<void>;
  committed(): void;
  failed(): void;
}

/** How a run ended, as its row records it. */
export interface RunOutcome {
  status: Extract<RunStatus, 'completed' | 'failed' | 'cancelled' | 'waiting'>;
  reply: MessageReplyView | null;
  /** The problem body of a failed run. */
  error: Record<string, unknown> | null;
}

/** What the sweep writes for a run whose instance stopped. */
export const orphanDetail =
  'The instance producing this run stopped before it ended; what it said so far is in its events. Send the message again.';
/** The problem of a run ended because its instance stopped (`requestId`: the run's id). */
export function orphanProblem(runId: string) {
  return {
    type: '/docs/errors#service_unavailable',
    title: 'Service unavailable',
    status: 503,
    code: 'service_unavailable',
    detail: orphanDetail,
    requestId: runId,
  };
}
/** How many times a run is taken over before it is ended as failed (a run whose work stops its instance). */
export const maxTakeovers = 3;

/**
 * Whether a run whose instance stopped is continued elsewhere: not one that
 * someone asked to cancel (it ends), not a platform message's (the platform's
 * item is answered again by its connector, src/platforms/), not an eval's, not one taken over
 * `maxTakeovers` times already.
 */
function takesOver(run: RunRow): boolean {
  // An eval's reply is answered again by its eval (src/services/evals/), which runs its cases without a result.
  return (
    run.cancel_requested_at === null &&
    run.trigger !== 'platform' &&
    run.trigger !== 'eval' &&
    run.takeovers < maxTakeovers
  );
}

/** Orphaned runs ended per sweep: the rest wait for the next beat. */
const sweepBatch = 100;
/** The retention's prune runs at most this often. */
const pruneEveryMs = 10 * 60_000;

function batchOf(runId: string, events: SequencedEvent[]) {
  return {
    runId,
    firstSeq: (events[0] as SequencedEvent).seq,
    lastSeq: (events[events.length - 1] as SequencedEvent).seq,
    events: JSON.stringify(events.map(({ event, data }) => ({ event, data }))),
  };
}

/** The sequence number of a run's last event once `events` (its unwritten ones) are written. */
function lastSeqOf(log: RunLog, events: SequencedEvent[]): number {
  return events.length > 0 ? (events[events.length - 1] as SequencedEvent).seq : log.lastSeq;
}

function finishOf(outcome: RunOutcome, lastSeq: number, now: string): RunFinish {
  return {
    status: outcome.status,
    finishReason: outcome.reply?.finishReason ?? null,
    usage: outcome.reply ? JSON.stringify(outcome.reply.usage) : null,
    result: outcome.reply ? JSON.stringify(outcome.reply) : null,
    error: outcome.error ? JSON.stringify(outcome.error) : null,
    eventCount: lastSeq,
    finishedAt: now,
  };
}

/**
 * The runs this instance produces: their logs (for local readers and
 * cancellation), the batched writes of their events, this instance's
 * heartbeat, the cancel requests made on other instances, and the sweep that
 * ends runs whose instance stopped (SIGKILL, power loss) as failed within
 * `staleMs` plus one heartbeat.
 */
export class RunRuntime {
  readonly live = new Map<string, RunLog>();
  /** Live runs with events to write: a flush visits these, not every open run (10,000 open streams, a few dozen). */
  readonly #unwritten = new Set<RunLog>();
  #flushTimer: NodeJS.Timeout | null = null;
  #heartbeatTimer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();
  /** The heartbeat in progress: `close` waits for it, so none is left querying a closed database. */
  #beating: Promise<void> = Promise.resolve();
  #lastPrune = 0;
  #closed = false;
  readonly #beatTasks: (() => Promise<unknown>)[] = [];
  /** Journal entries to write with the next flush (src/services/runs/run-journal.ts, `later`). */
  #pendingSteps: NewRunStep[] = [];
  /** Continues a run taken over from a stopped instance; without one, such runs end failed. */
  #takeOver: ((run: RunRow) => Promise<unknown>) | null = null;
  /** The runs this instance took over, until they end: `close` waits for them. */
  readonly #takenOver = new Set<Promise<unknown>>();

  constructor(
    private readonly options: {
      db: Kysely<Database>;
      runs: RunRepository;
      runSteps: RunStepRepository;
      approvals: ApprovalRepository;
      clock: Clock;
      logger: Logger;
      instanceId: string;
      settings: RunSettings;
    },
  ) {}

  get instanceId(): string {
    return this.options.instanceId;
  }

  get settings(): RunSettings {
    return this.options.settings;
  }

  start(): void {
    this.#flushTimer = setInterval(() => void this.flush(), this.options.settings.flushMs);
    this.#flushTimer.unref();
    this.#heartbeatTimer = setInterval(() => void this.#beatOnce(), this.options.settings.heartbeatMs);
    this.#heartbeatTimer.unref();
    void this.#beatOnce();
  }

  /** Work done at every heartbeat after the runs' own (the expiry of approvals); its failures are logged. */
  onBeat(task: () => Promise<unknown>): void {
    this.#beatTasks.push(task);
  }

  /**
   * How this instance continues a run whose instance stopped, once it has
   * claimed it (src/services/runs/take-over-run.ts).
   */
  onTakeOver(takeOver: (run: RunRow) => Promise<unknown>): void {
    this.#takeOver = takeOver;
  }

  /** Journal entries written with the next flush. */
  queueSteps(steps: NewRunStep[]): void {
    for (const step of steps) this.#pendingSteps.push(step);
  }

  /**
   * Registers a run this instance is about to produce; `stored` resolves once
   * its row exists; `after`, the last event a run taken over had stored.
   */
  begin(run: { id: string; accountId: string; agentId: string }, stored: Promise<void>, after = 0): RunLog {
    // A failed insert is reported where the run ends (its final write fails too); never unhandled.
    stored.catch(() => {});
    const log = new RunLog(
      run.id,
      run.accountId,
      run.agentId,
      stored,
      (unwritten) => this.#unwritten.add(unwritten),
      after,
    );
    this.live.set(run.id, log);
    if (this.#closed) log.stop('shutdown');
    return log;
  }

  /** Writes the new events of every live run, in one transaction. One flush at a time. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#flushOnce());
    return this.#flushing;
  }

  async #flushOnce(): Promise<void> {
    const pending: { log: RunLog; from: number; events: SequencedEvent[] }[] = [];
    for (const log of this.#unwritten) {
      if (log.ended || !log.hasUnwritten) continue;
      pending.push({ log, ...log.takeUnwritten() });
    }
    // Events recorded from here on (and a batch given back by `untake`) mark their log again.
    this.#unwritten.clear();
    if (this.#pendingSteps.length > 0) {
      const steps = this.#pendingSteps;
      this.#pendingSteps = [];
      try {
        await this.options.runSteps.append(steps, isoTime(this.options.clock.now()));
      } catch (error) {
        this.#pendingSteps.unshift(...steps);
        this.options.logger.warn({ err: error }, 'could not write run steps; will retry');
      }
    }
    if (pending.length === 0) return;
    try {
      // Almost every run's row exists by its first flush: only the others are waited for (a flush every 100 ms
      // with 10,000 open streams otherwise builds a Promise.all over a hundred settled promises each time).
      const unstored: Promise<void>[] = [];
      for (const { log } of pending) if (!log.isStored) unstored.push(log.stored);
      if (unstored.length > 0) await Promise.all(unstored);
      await this.options.runs.appendEvents(
        pending.map(({ log, events }) => batchOf(log.runId, events)),
        isoTime(this.options.clock.now()),
      );
      for (const { log, events } of pending) log.written((events[events.length - 1] as SequencedEvent).seq);
    } catch (error) {
      // Kept for the next flush (or the final write): readers elsewhere see them later, not never.
      for (const { log, from } of pending) log.untake(from);
      this.options.logger.warn({ err: error }, 'could not write run events; will retry');
    }
  }

  /**
   * Stores how the run ended with its last events, in one transaction, and
   * ends its readers' streams. False when the run had already been ended
   * elsewhere (the sweep took this instance for stopped). A run whose end was
   * already written with its exchange (see `prepareEnd`) is left as it is.
   */
  async finish(log: RunLog, outcome: RunOutcome): Promise<boolean> {
    if (log.ended) return true;
    // Waits for a flush in progress, so batches are written in order.
    await this.#flushing;
    const { events } = log.takeUnwritten();
    const now = isoTime(this.options.clock.now());
    let finished = false;
    try {
      await log.stored;
      finished = await this.options.db
        .transaction()
        .execute((transaction) => this.#writeEnd(log, outcome, events, now, transaction));
    } catch (error) {
      this.options.logger.error({ err: error, runId: log.runId }, 'could not store the end of a run');
    } finally {
      this.live.delete(log.runId);
      log.end();
    }
    return finished;
  }

  /**
   * The end of a run that the caller writes in its own transaction, with the
   * run's last event: a completed reply stores its exchange and its run's end
   * in one commit, so a run costs a reply no commit of its own. `committed()`
   * then records the last event and ends the readers' streams; `failed()`
   * keeps the unwritten events for the run's ordinary finish. Null when the
   * run's row could not be written (its end is then left to `finish`).
   */
  async prepareEnd(log: RunLog, outcome: RunOutcome, last: WireEvent): Promise<RunEnding | null> {
    if (log.ended) return null;
    await this.#flushing;
    try {
      await log.stored;
    } catch {
      return null;
    }
    const { events, from } = log.takeUnwritten();
    events.push({ seq: log.lastSeq + 1, event: last.event, data: last.data });
    const now = isoTime(this.options.clock.now());
    return {
      rows:
        outcome.status === 'waiting'
          ? null
          : {
              runId: log.runId,
              finish: finishOf(outcome, lastSeqOf(log, events), now),
              events: events.length > 0 ? batchOf(log.runId, events) : null,
            },
      write: async (transaction) => {
        await this.#writeEnd(log, outcome, events, now, transaction);
      },
      committed: () => {
        log.record(last);
        this.live.delete(log.runId);
        log.end();
      },
      failed: () => log.untake(from),
    };
  }

  async #writeEnd(
    log: RunLog,
    outcome: RunOutcome,
    events: SequencedEvent[],
    now: string,
    transaction: Transaction<Database>,
  ): Promise<boolean> {
    const { runs, approvals } = this.options;
    const waiting = outcome.status === 'waiting';
    // A run that paused for approvals takes its paused row first, as decisions do: a decision taken before this
    // end is stored is then seen here, and the run is settled rather than left waiting for it.
    if (waiting) await approvals.lockPausedRun(log.runId, transaction);
    const ended = await runs.finish(log.runId, finishOf(outcome, lastSeqOf(log, events), now), transaction);
    if (ended && events.length > 0) await runs.appendEvents([batchOf(log.runId, events)], now, transaction);
    if (ended && waiting && (await approvals.pausedRun(log.runId, transaction))?.resumed_run_id) {
      await runs.settleWaiting(log.runId, transaction);
    }
    return ended;
  }

  /** Stops a run produced here; false when it is not (it runs elsewhere, or has ended). */
  stopLocal(runId: string, reason: 'cancelled'): boolean {
    const log = this.live.get(runId);
    if (log === undefined || log.ended) return false;
    log.stop(reason);
    return true;
  }

  /** Resolves when the run produced here has ended, or after `timeoutMs`. */
  async ended(runId: string, timeoutMs: number): Promise<void> {
    const log = this.live.get(runId);
    if (log === undefined || log.ended) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const unfollow = log.follow(log.lastSeq, (event) => {
        if (event === null) done();
      });
      function done() {
        clearTimeout(timer);
        unfollow?.();
        resolve();
      }
    });
  }

  /** A heartbeat after the one in progress, if any. */
  #beatOnce(): Promise<void> {
    this.#beating = this.#beating
      .then(() => this.beat())
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'run heartbeat failed; will retry'));
    return this.#beating;
  }

  /** One heartbeat: report alive, honour cancel requests made elsewhere, end orphaned runs, prune. */
  async beat(): Promise<void> {
    if (this.#closed) return;
    const { runs, clock, logger, instanceId, settings } = this.options;
    try {
      const now = clock.now();
      await runs.heartbeat(instanceId, isoTime(now));
      for (const runId of await runs.cancelRequested(instanceId)) this.live.get(runId)?.stop('cancelled');
      await this.#sweep(isoTime(now - settings.staleMs));
      if (now - this.#lastPrune >= pruneEveryMs) {
        this.#lastPrune = now;
        const removed = await runs.prune(
          isoTime(now - settings.eventRetentionHours * 3_600_000),
          isoTime(now - Math.max(settings.staleMs * 10, 3_600_000)),
        );
        const journal = await this.options.runSteps.prune(isoTime(now - settings.eventRetentionHours * 3_600_000));
        if (removed + journal > 0)
          logger.info({ removed, journal }, 'pruned run events and steps past their retention');
      }
    } catch (error) {
      logger.warn({ err: error }, 'run heartbeat failed; will retry');
    }
    for (const task of this.#beatTasks) {
      if (this.#closed) return;
      await task().catch((error: unknown) => logger.warn({ err: error }, 'heartbeat task failed; will retry'));
    }
  }

  async #sweep(staleBefore: string): Promise<void> {
    const { runs, db, clock, logger, instanceId } = this.options;
    for (const run of await runs.orphaned(staleBefore, sweepBatch)) {
      if (this.live.has(run.id)) continue;
      if (this.#takeOver !== null && !this.#closed && takesOver(run)) {
        // One claim: the instance whose sweep takes it first goes on with it; the others see it taken.
        const claimed = await runs.claimOrphan(run.id, run.instance_id, instanceId).catch((error: unknown) => {
          logger.debug({ err: error, runId: run.id }, 'could not claim an orphaned run');
          return null;
        });
        if (claimed === null) continue;
        logger.warn(
          { runId: run.id, agentId: run.agent_id, from: run.instance_id, takeovers: claimed.takeovers },
          'took over a run whose instance stopped',
        );
        const going = this.#takeOver(claimed)
          .catch(async (error: unknown) => {
            logger.error({ err: error, runId: run.id }, 'a run taken over failed');
            // Its producer gave up without ending it: it is ended here rather than left queued on a live instance.
            if (!this.live.has(run.id)) await this.#endFailed(claimed);
          })
          .finally(() => this.#takenOver.delete(going));
        this.#takenOver.add(going);
        continue;
      }
      await this.#endFailed(run);
    }
  }

  /** Ends an unfinished run as failed (its instance stopped), with `message.failed` after its stored events. */
  async #endFailed(run: RunRow): Promise<void> {
    const { runs, db, clock, logger } = this.options;
    const now = isoTime(clock.now());
    const error = orphanProblem(run.id);
    try {
      await db.transaction().execute(async (transaction) => {
        const lastSeq = await runs.lastSeq(run.id, transaction);
        const ended = await runs.finish(
          run.id,
          {
            status: 'failed',
            finishReason: null,
            usage: null,
            result: null,
            error: JSON.stringify(error),
            eventCount: lastSeq + 1,
            finishedAt: now,
          },
          transaction,
        );
        if (!ended) return;
        const failed = { seq: lastSeq + 1, event: 'message.failed', data: { id: run.message_id, error } };
        await runs.appendEvents([batchOf(run.id, [failed])], now, transaction);
      });
      logger.warn({ runId: run.id, agentId: run.agent_id, instanceId: run.instance_id }, 'ended an orphaned run');
    } catch (failure) {
      // Another instance's sweep may have ended it at the same moment.
      logger.debug({ err: failure, runId: run.id }, 'could not end an orphaned run');
    }
  }

  /** Stops every run produced here, waits up to `timeoutMs` for them to store their end, and stops beating. */
  async close(timeoutMs = 5_000): Promise<void> {
    this.#closed = true;
    if (this.#heartbeatTimer) clearInterval(this.#heartbeatTimer);
    await this.#beating;
    for (const log of this.live.values()) log.stop('shutdown');
    await Promise.all([...this.live.keys()].map((runId) => this.ended(runId, timeoutMs)));
    // The runs taken over have stopped with the others: their producers store how they ended.
    if (this.#takenOver.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.#takenOver]),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
    }
    if (this.#flushTimer) clearInterval(this.#flushTimer);
    await this.#flushing;
    // A runtime that never started never beat: the heartbeat under its id, if any, is another process's (an
    // administration command given the serving instance's AGENTD_INSTANCE_ID), and stays.
    if (this.#heartbeatTimer === null) return;
    await this.options.runs.forgetInstance(this.options.instanceId).catch(() => {});
  }
}

import { setTimeout as delay } from 'node:timers/promises';
import { settledRunStatuses, type RunStatus } from '../../schemas/runs.js';
import type { RunRow } from '../../storage/repositories/runs.js';
import { requireScope, type ServiceContext } from '../context.js';
import type { RunLog, SequencedEvent } from './run-log.js';
import { orphanDetail } from './run-runtime.js';
import { findOwnRun } from './runs.js';

/**
 * A run's events after `afterSeq`, for GET …/runs/{runId}/events: from this
 * instance's memory while it produces the run, else from the database
 * (polled every `pollMs` while the run goes on elsewhere), until the run's
 * last event. Events past their retention are gone: a finished run then
 * gives its outcome as one last event rebuilt from the run's record. So does
 * a run whose reader is past its stored events (its producer was killed
 * before storing what it had sent): numbered after the reader's last event.
 */
export async function openRunEvents({
  ctx,
  agentId,
  runId,
  afterSeq,
  signal,
}: {
  ctx: ServiceContext;
  agentId: string;
  runId: string;
  afterSeq: number;
  signal: AbortSignal;
}): Promise<AsyncGenerator<SequencedEvent, void, undefined>> {
  requireScope(ctx, 'agents:read');
  const row = await findOwnRun(ctx, agentId, runId);
  return followRun(ctx, row, afterSeq, signal);
}

async function* followRun(
  ctx: ServiceContext,
  row: RunRow,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<SequencedEvent, void, undefined> {
  const { runs, repositories } = ctx.deps;
  let last = afterSeq;
  let current: RunRow | undefined = row;
  /** The run ended here with no event after the reader's last one (see below). */
  let missedEnd = false;
  while (!signal.aborted) {
    const live = runs.live.get(row.id);
    if (live !== undefined) {
      const local = followLocal(live, last, signal);
      if (local !== null) {
        let followed = false;
        for await (const event of local) {
          followed = true;
          last = event.seq;
          yield event;
        }
        if (signal.aborted || followed) return;
        // Nothing after the reader's last event: it was ahead of this log (see RunLog.follow), or joined at the end.
        // The run's outcome is then read from its stored end below, numbered after what the reader has seen.
        missedEnd = true;
        continue;
      }
      // Events after `last` left this instance's memory once written: read them from the database first.
    }
    // The status first, then the events: a run's last events commit with its end, so none are missed.
    current = await repositories.runs.findById(row.id);
    if (current === undefined) return;
    const batches = await repositories.runs.eventsAfter(row.id, last);
    for (const batch of batches) {
      const events = JSON.parse(batch.events) as { event: string; data: unknown }[];
      for (const [index, event] of events.entries()) {
        const seq = batch.firstSeq + index;
        if (seq <= last) continue;
        last = seq;
        yield { seq, event: event.event, data: event.data };
      }
    }
    if (live !== undefined) continue;
    // A waiting run's reply has ended: its stream ends too (the rest is a run of its own).
    if (settledRunStatuses.has(current.status as RunStatus)) {
      if (batches.length === 0 && current.event_count > last) {
        const outcome = outcomeEvent(current);
        if (outcome !== null) yield outcome;
      } else if (batches.length === 0 && (last > current.event_count || endedBySweep(current) || missedEnd)) {
        // The reader saw events its producer sent but never stored (it was killed between two flushes), and the
        // sweep, or the instance that took the run over, numbered on after the stored ones: the outcome comes after
        // what the reader has seen. At exactly that number the reader may have seen either; it gets the outcome
        // (again) rather than a stream that ends without one.
        const outcome = outcomeEvent(current);
        if (outcome !== null) yield { ...outcome, seq: last + 1 };
      }
      return;
    }
    try {
      await delay(runs.settings.pollMs, undefined, { signal });
    } catch {
      return;
    }
  }
}

/** Whether the run was ended by the sweep of a stopped instance's runs: only then can events be missing. */
function endedBySweep(row: RunRow): boolean {
  return row.error !== null && (JSON.parse(row.error) as { detail?: unknown }).detail === orphanDetail;
}

/** The last event of a finished run whose events are past their retention, rebuilt from its record. */
function outcomeEvent(row: RunRow): SequencedEvent | null {
  if (row.result !== null) return { seq: row.event_count, event: 'message.completed', data: JSON.parse(row.result) };
  if (row.error !== null) {
    return {
      seq: row.event_count,
      event: 'message.failed',
      data: { id: row.message_id, error: JSON.parse(row.error) },
    };
  }
  return null;
}

/**
 * The events of a run produced here, as they come; ends with the run, or when
 * the reader's signal aborts. Null when the events after `afterSeq` are no
 * longer held in memory (they were written: read them from the database).
 */
function followLocal(
  log: RunLog,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<SequencedEvent, void, undefined> | null {
  const queue: (SequencedEvent | null)[] = [];
  let wake: (() => void) | null = null;
  const unfollow = log.follow(afterSeq, (event) => {
    queue.push(event);
    wake?.();
  });
  if (unfollow === null) return null;
  return (async function* () {
    const onAbort = () => wake?.();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        while (queue.length === 0 && !signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        if (signal.aborted) return;
        const event = queue.shift() as SequencedEvent | null;
        if (event === null) return;
        yield event;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      unfollow();
    }
  })();
}

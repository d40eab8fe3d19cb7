/**
 * The signal of one outgoing attempt: aborted when `stopping` (a signal that
 * lives as long as the process, e.g. a worker's shutdown) aborts, or after
 * `timeoutMs` (a `TimeoutError`). `release()` once the attempt is over.
 *
 * Not `AbortSignal.any([timeout, stopping])`: on Node 20 every such call leaves
 * an entry in the long-lived signal's set of dependants that is never removed
 * (about 60 bytes an attempt, held for the life of the process). Here the
 * long-lived signal only carries a listener for the attempt's duration, and
 * the composite is made of signals that die with the attempt.
 */
export function attemptSignal(stopping: AbortSignal, timeoutMs: number): { signal: AbortSignal; release(): void } {
  const stopped = new AbortController();
  const stop = () => stopped.abort(stopping.reason);
  if (stopping.aborted) stop();
  else stopping.addEventListener('abort', stop, { once: true });
  return {
    signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stopped.signal]),
    release: () => stopping.removeEventListener('abort', stop),
  };
}

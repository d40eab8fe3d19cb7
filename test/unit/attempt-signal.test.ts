import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { attemptSignal } from '../../src/attempt-signal.js';

/** Node's own record, on a signal, of the composite signals made from it; null on a Node without one. */
const dependantsKey = (() => {
  const probe = new AbortController().signal;
  AbortSignal.any([probe]);
  return Object.getOwnPropertySymbols(probe).find((symbol) => symbol.description === 'kDependantSignals') ?? null;
})();

function dependantsOf(signal: AbortSignal): number {
  return (signal as unknown as Record<symbol, Set<unknown> | undefined>)[dependantsKey!]?.size ?? 0;
}

test('an attempt ends when the long-lived signal aborts, with its reason', () => {
  const stopping = new AbortController();
  const attempt = attemptSignal(stopping.signal, 60_000);
  assert.equal(attempt.signal.aborted, false);
  const reason = new Error('shutting down');
  stopping.abort(reason);
  assert.equal(attempt.signal.aborted, true);
  assert.equal(attempt.signal.reason, reason);
  attempt.release();
});

test('an attempt started after the long-lived signal aborted is aborted already', () => {
  const stopping = new AbortController();
  stopping.abort();
  assert.equal(attemptSignal(stopping.signal, 60_000).signal.aborted, true);
});

test('an attempt times out with a TimeoutError', async () => {
  const attempt = attemptSignal(new AbortController().signal, 5);
  // AbortSignal.timeout's timer does not keep the process alive: with nothing else pending, the test runner
  // would see the event loop end before the abort. This timer keeps it alive while the test waits.
  const keepAlive = setInterval(() => undefined, 1_000);
  try {
    await new Promise((resolve) => attempt.signal.addEventListener('abort', resolve, { once: true }));
  } finally {
    clearInterval(keepAlive);
  }
  assert.equal((attempt.signal.reason as Error).name, 'TimeoutError');
  attempt.release();
});

test('finished attempts leave nothing on the long-lived signal (one per webhook delivery, for the life of the process)', (context) => {
  const stopping = new AbortController();
  for (let index = 0; index < 1_000; index += 1) attemptSignal(stopping.signal, 60_000).release();
  assert.equal(getEventListeners(stopping.signal, 'abort').length, 0);
  if (dependantsKey === null) return context.skip('this Node keeps no record of dependants on a signal');
  assert.equal(dependantsOf(stopping.signal), 0);
  // What it replaces keeps one entry an attempt: the growth this guards against.
  for (let index = 0; index < 1_000; index += 1) AbortSignal.any([AbortSignal.timeout(60_000), stopping.signal]);
  assert.equal(dependantsOf(stopping.signal), 1_000);
});

/**
 * A pull with handlers made once instead of a promise per pull.
 *
 * A streamed reply is read through layers (the provider's answer, the model
 * gateway, the reply, the SSE writer), and each open stream spends most of its
 * life waiting for its next word. With `next()`, every layer keeps a promise
 * and a reaction for that wait, made anew for every word and held until the
 * word comes: at 10,000 open streams and a word every few seconds each, that
 * is what the young generation copies and promotes at every collection
 * (bench/README.md, "Open streams"). A layer that can `receive` keeps only a
 * reference to its reader's receiver while it waits.
 */
export interface Receiver<T> {
  /** The next value. Must not throw: it may be called from an event handler that cannot report it. */
  received(value: T): void;
  /** The pull failed. Must not throw, likewise. */
  failed(error: unknown): void;
}

/**
 * An async iterator that can also hand its next result to a receiver: exactly
 * once, and never before `receive` returned (as a promise's reaction would).
 * One pull at a time, as with `next()`.
 */
export interface ReceivingIterator<T> extends AsyncIterator<T> {
  receive(receiver: Receiver<IteratorResult<T>>): void;
}

export function canReceive<T>(iterator: AsyncIterator<T>): iterator is ReceivingIterator<T> {
  return typeof (iterator as Partial<ReceivingIterator<T>>).receive === 'function';
}

/** Hands `pending` to `receiver` when it settles: for a pull that has only a promise to give. */
export function receiveFrom<T>(pending: PromiseLike<T>, receiver: Receiver<T>): void {
  pending.then(
    (value) => receiver.received(value),
    (error: unknown) => receiver.failed(error),
  );
}

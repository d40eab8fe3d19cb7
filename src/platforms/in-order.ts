/**
 * Handles `items` with up to `concurrency` at a time, taking each with
 * `take` strictly in the items' order, one take after the other (a durable
 * position only moves forward, so takes must not overtake each other), and
 * handling those taken concurrently. Items with the same `threadOf` (a
 * conversation's thread) are handled one after the other, in their order:
 * the answer to a thread's second post is written once the first's is, with
 * the first in the conversation's history. Stops taking once `signal` aborts.
 */
export async function takeInOrder<Item>(
  items: readonly Item[],
  concurrency: number,
  signal: AbortSignal,
  take: (item: Item) => Promise<boolean>,
  handle: (item: Item) => Promise<void>,
  threadOf: (item: Item) => string | null = () => null,
): Promise<void> {
  let next = 0;
  let taking: Promise<unknown> = Promise.resolve();
  /** Per thread, the handling of its latest item taken so far. */
  const threads = new Map<string, Promise<unknown>>();
  const worker = async () => {
    for (;;) {
      if (signal.aborted) return;
      const item = items[next];
      next += 1;
      if (item === undefined) return;
      // Chained synchronously, in the order workers picked their items.
      const taken = taking.catch(() => undefined).then(() => take(item));
      taking = taken;
      const thread = threadOf(item);
      const previous = thread === null ? undefined : threads.get(thread);
      const handled = taken.then(async (isTaken) => {
        // An earlier item of the thread is answered first, whether or not it succeeded.
        await previous?.catch(() => undefined);
        if (isTaken) await handle(item);
      });
      if (thread !== null) threads.set(thread, handled);
      await handled;
      if (thread !== null && threads.get(thread) === handled) threads.delete(thread);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

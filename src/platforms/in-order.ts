/**
 * Handles `items` with up to `concurrency` at a time, taking each with
 * `take` strictly in the items' order, one take after the other (a durable
 * position only moves forward, so takes must not overtake each other), and
 * handling those taken concurrently. Stops taking once `signal` aborts.
 */
export async function takeInOrder<Item>(
  items: readonly Item[],
  concurrency: number,
  signal: AbortSignal,
  take: (item: Item) => Promise<boolean>,
  handle: (item: Item) => Promise<void>,
): Promise<void> {
  let next = 0;
  let taking: Promise<unknown> = Promise.resolve();
  const worker = async () => {
    for (;;) {
      if (signal.aborted) return;
      const item = items[next];
      next += 1;
      if (item === undefined) return;
      // Chained synchronously, in the order workers picked their items.
      const taken = taking.catch(() => undefined).then(() => take(item));
      taking = taken;
      if (await taken) await handle(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

/**
 * Polls `condition` every `everyMs` until it holds or `withinMs` has passed:
 * the milliseconds it took, or null. Tests wait for what they can observe this
 * way, with a bound, instead of sleeping for a guessed time.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  withinMs: number,
  everyMs = 25,
): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (await condition()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return null;
}

/**
 * For outcomes the server reaches on its own after a client's action (e.g.
 * storing a reply after a disconnect): checks again every few milliseconds
 * until `check` returns a value, and fails after `timeoutMs`.
 */
export async function eventually<T>(check: () => Promise<T | null>, what: string, timeoutMs = 5_000): Promise<T> {
  let value: T | null = null;
  const took = await waitFor(async () => (value = await check()) !== null, timeoutMs, 10);
  if (took === null || value === null) throw new Error(`timed out waiting for ${what}`);
  return value;
}

/**
 * Polls `condition` every `everyMs` until it holds or `withinMs` has passed:
 * the milliseconds it took, or null. Tests wait for what they can observe this
 * way, with a bound, instead of sleeping for a guessed time.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, withinMs: number, everyMs = 25): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (await condition()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return null;
}

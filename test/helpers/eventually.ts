/**
 * For outcomes the server reaches on its own after a client's action (e.g.
 * storing a reply after a disconnect): checks again every few milliseconds
 * until `check` returns a value, and fails after `timeoutMs`. It waits for a
 * condition, never for a fixed time.
 */
export async function eventually<T>(check: () => Promise<T | null>, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

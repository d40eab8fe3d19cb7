import type { ConcurrencyLease, ConcurrencyLimiter } from './concurrency-limiter.js';

/** In-process counters: exact for one instance. */
export class MemoryConcurrencyLimiter implements ConcurrencyLimiter {
  readonly #held = new Map<string, number>();

  async acquire(key: string, max: number): Promise<ConcurrencyLease | null> {
    return this.acquireNow(key, max);
  }

  acquireNow(key: string, max: number): ConcurrencyLease | null {
    const held = this.#held.get(key) ?? 0;
    if (held >= max) return null;
    this.#held.set(key, held + 1);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        const now = (this.#held.get(key) ?? 1) - 1;
        if (now <= 0) this.#held.delete(key);
        else this.#held.set(key, now);
      },
    };
  }

  /** Leases currently held for a key (for tests and metrics). */
  heldCount(key: string): number {
    return this.#held.get(key) ?? 0;
  }

  async close(): Promise<void> {
    this.#held.clear();
  }
}

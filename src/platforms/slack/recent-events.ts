/**
 * Event ids taken recently, to drop Slack's retries of an event already
 * answered. Slack retries an event it thinks was not acknowledged three times
 * within about five minutes; ids are kept a little longer than that. Bounded
 * in count so a flood of distinct ids cannot grow memory without end (the
 * oldest are forgotten first). Kept per instance: a retry that reaches another
 * instance behind the same load balancer is not recognised there.
 */
export class RecentEvents {
  private readonly takenAt = new Map<string, number>();

  constructor(
    private readonly keepMs = 10 * 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** True the first time `key` is seen within the keeping time; false for a repeat. */
  take(key: string, now: number): boolean {
    this.forgetExpired(now);
    if (this.takenAt.has(key)) return false;
    this.takenAt.set(key, now);
    if (this.takenAt.size > this.maxEntries) {
      const oldest = this.takenAt.keys().next().value;
      if (oldest !== undefined) this.takenAt.delete(oldest);
    }
    return true;
  }

  private forgetExpired(now: number): void {
    // Insertion order is time order, so expired entries are at the front.
    for (const [key, at] of this.takenAt) {
      if (now - at < this.keepMs) break;
      this.takenAt.delete(key);
    }
  }
}

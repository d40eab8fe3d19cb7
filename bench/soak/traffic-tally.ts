/** What the soak's clients saw: answers by operation and status, latencies, and what should not have happened. */
export class TrafficTally {
  /** `operation status` → count, e.g. `create 201`. */
  readonly answers = new Map<string, number>();
  readonly durations = new Map<string, number[]>();
  /** Answers with a status or a body the contract does not allow for that request, and broken connections. */
  readonly problems: string[] = [];
  problemCount = 0;

  record(operation: string, status: number | string, milliseconds: number): void {
    const key = `${operation} ${status}`;
    this.answers.set(key, (this.answers.get(key) ?? 0) + 1);
    let list = this.durations.get(operation);
    if (list === undefined) this.durations.set(operation, (list = []));
    list.push(milliseconds);
  }

  problem(description: string): void {
    this.problemCount += 1;
    // The first ones say what went wrong; thousands of the same line would not say more.
    if (this.problems.length < 50) this.problems.push(description);
  }

  get total(): number {
    let total = 0;
    for (const count of this.answers.values()) total += count;
    return total;
  }

  /** Count by HTTP status over every operation. */
  byStatus(): Record<string, number> {
    const statuses: Record<string, number> = {};
    for (const [key, count] of this.answers) {
      const status = key.slice(key.lastIndexOf(' ') + 1);
      statuses[status] = (statuses[status] ?? 0) + count;
    }
    return statuses;
  }
}

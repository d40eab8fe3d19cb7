export interface TrafficSummary {
  /** `operation status` → count, e.g. `create 201`. */
  answers: Record<string, number>;
  durations: Record<string, { count: number; p50Ms: number; p99Ms: number }>;
  problems: number;
  firstProblems: string[];
}

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

  /** What a summary keeps of the traffic: answers by operation and status, latency percentiles, problems. */
  summary(): TrafficSummary {
    const durations: TrafficSummary['durations'] = {};
    for (const [operation, values] of [...this.durations].sort(([left], [right]) => left.localeCompare(right))) {
      const sorted = [...values].sort((left, right) => left - right);
      const at = (fraction: number) =>
        sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number;
      durations[operation] = {
        count: sorted.length,
        p50Ms: Math.round(at(0.5) * 10) / 10,
        p99Ms: Math.round(at(0.99) * 10) / 10,
      };
    }
    return {
      answers: Object.fromEntries([...this.answers].sort(([left], [right]) => left.localeCompare(right))),
      durations,
      problems: this.problemCount,
      firstProblems: this.problems,
    };
  }

  get total(): number {
    let total = 0;
    for (const count of this.answers.values()) total += count;
    return total;
  }
}

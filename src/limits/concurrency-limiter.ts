/**
 * At most `max` holders of a key at once (message requests in flight per agent).
 * A lease is held until released; a stream holds its lease until the stream ends.
 */
export interface ConcurrencyLease {
  release(): Promise<void>;
}

export interface ConcurrencyLimiter {
  /** A lease, or null when `max` are already held. */
  acquire(key: string, max: number): Promise<ConcurrencyLease | null>;
  close(): Promise<void>;
}

/**
 * Per-key request limits over a sliding window: at most `limit` requests in any
 * `windowMs`. A sliding log is exact (no burst of twice the limit at a window
 * edge) and its numbers mean what the headers promise.
 */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left now (after this one, when it was allowed). */
  remaining: number;
  /** Epoch milliseconds at which `remaining` is back to `limit`. */
  resetAt: number;
  /** When denied: milliseconds until one more request would be allowed. */
  retryAfterMs: number;
}

export interface RateLimiter {
  consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

/**
 * When a failed delivery is tried again, in units of AGENTD_WEBHOOK_RETRY_BASE_MS
 * (5 s by default): 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h
 * after each failed attempt, so 11 attempts over about 23.7 h, after which
 * the delivery is `failed`. Growing gaps (an exponential backoff, capped at
 * 8 h) give a receiver that is down for a moment a quick retry and one that
 * is down for a day a bounded number of calls, as the Standard Webhooks
 * guidance and common providers do.
 */
export const retryMultipliers = [1, 6, 24, 120, 360, 720, 1440, 2880, 5760, 5760] as const;

/** The most attempts one delivery gets: the first and one per retry. */
export const maximumAttempts = retryMultipliers.length + 1;

/**
 * The pause after failed attempt `attempt` (1-based), or null when it was the
 * last. ±10 % jitter keeps the retries of many deliveries that failed together
 * (a receiver's outage) from arriving together again.
 */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number | null {
  const multiplier = retryMultipliers[attempt - 1];
  if (multiplier === undefined) return null;
  return Math.round(multiplier * baseMs * (0.9 + 0.2 * random()));
}

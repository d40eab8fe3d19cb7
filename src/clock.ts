/** Time source, injectable so that limits and expiries can be tested without waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function isoTime(milliseconds: number): string {
  return new Date(milliseconds).toISOString();
}

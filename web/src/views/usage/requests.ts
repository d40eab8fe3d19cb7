import { request } from '../../api.js';
import type { operations } from '../../../../src/client/openapi.js';

export type DailyUsage = operations['getDailyUsage']['responses'][200]['content']['application/json'];
export type DailyModelUsage = DailyUsage['data'][number];

/** A range of whole UTC days, both ends included, as `YYYY-MM-DD`. */
export interface DayRange {
  from: string;
  to: string;
}

const dayMs = 86_400_000;

export const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The last 30 days, today (UTC) included. */
export function lastThirtyDays(now = Date.now()): DayRange {
  return { from: dayOf(now - 29 * dayMs), to: dayOf(now) };
}

/** Every day of the range, in order. */
export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  for (let time = Date.parse(range.from); time <= Date.parse(range.to); time += dayMs) days.push(dayOf(time));
  return days;
}

/** GET /v1/metrics/usage/daily over the range's days: from its first midnight to the midnight after its last day. */
export function getDailyUsage(range: DayRange, signal?: AbortSignal): Promise<DailyUsage> {
  return request<DailyUsage>('GET', '/v1/metrics/usage/daily', {
    query: { from: `${range.from}T00:00:00Z`, to: `${dayOf(Date.parse(range.to) + dayMs)}T00:00:00Z` },
    signal,
  });
}

import { Cron } from 'croner';
import { validationError } from '../../errors.js';
import type { TaskScheduleValue } from '../../schemas/tasks.js';

/**
 * When a task is due: the pure arithmetic of the three schedule forms, shared
 * by the API (validation, the first due time) and the scheduler (the due
 * times a claim covers, and the next one). Cron expressions are read by
 * croner in the task's IANA time zone: a wall-clock time that a DST change
 * skips runs at the first minute after the gap, one that happens twice runs
 * once.
 */

export type Schedule =
  | { kind: 'cron'; cron: string; timezone: string }
  | { kind: 'interval'; everySeconds: number }
  | { kind: 'once'; at: number };

/** RFC 3339 date-time with a required offset (`Z` or ±hh:mm); seconds required, fractions optional. */
const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since the epoch of an RFC 3339 date-time, or null when it is not one (e.g. 2030-02-30). */
export function parseRfc3339(text: string): number | null {
  const match = rfc3339.exec(text);
  if (match === null) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fraction = match[7] === undefined ? 0 : Math.floor(Number(`0${match[7]}`) * 1000);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, fraction);
  // Date.UTC rolls an impossible day over into the next month: the day must survive the round trip.
  if (new Date(utc).getUTCDate() !== day) return null;
  let offsetMinutes = 0;
  if (match[9] !== undefined) {
    const offsetHours = Number(match[10]);
    const offsetMins = Number(match[11]);
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  return utc - offsetMinutes * 60_000;
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Compiled expressions, by `timezone cron`: the scheduler reads the same few many times a second. */
const compiled = new Map<string, Cron>();
const compiledLimit = 10_000;

function cronOf(expression: string, timezone: string): Cron {
  const key = `${timezone} ${expression}`;
  let cron = compiled.get(key);
  if (cron === undefined) {
    cron = new Cron(expression, { timezone, paused: true, mode: '5-part' });
    if (compiled.size >= compiledLimit) compiled.clear();
    compiled.set(key, cron);
  }
  return cron;
}

/**
 * The schedule as given, checked beyond its JSON Schema: the cron expression
 * parses (five fields), the time zone is a known IANA zone, the interval is at
 * least the operator's minimum, `at` is an RFC 3339 date-time. Errors point
 * into the request body under `pointer`.
 */
export function parseSchedule(value: TaskScheduleValue, minIntervalSeconds: number, pointer: string): Schedule {
  if ('cron' in value) {
    const timezone = value.timezone ?? 'UTC';
    if (!isTimeZone(timezone)) {
      throw validationError(`${pointer}/timezone`, 'must be an IANA time zone name, e.g. Europe/Berlin or UTC');
    }
    const expression = value.cron.trim();
    if (!expression.startsWith('@') && expression.split(/\s+/).length !== 5) {
      throw validationError(`${pointer}/cron`, 'must have five fields: minute hour day-of-month month day-of-week');
    }
    try {
      const cron = cronOf(expression, timezone);
      if (cron.nextRun() === null) throw new Error('it is never due');
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error);
      throw validationError(`${pointer}/cron`, `is not a valid cron expression: ${reason}`);
    }
    return { kind: 'cron', cron: expression, timezone };
  }
  if ('everySeconds' in value) {
    if (value.everySeconds < minIntervalSeconds) {
      throw validationError(`${pointer}/everySeconds`, `must be at least ${minIntervalSeconds}`, 'too_small');
    }
    return { kind: 'interval', everySeconds: value.everySeconds };
  }
  const at = parseRfc3339(value.at);
  if (at === null) {
    throw validationError(`${pointer}/at`, 'must be an RFC 3339 date-time with an offset, e.g. 2030-01-31T08:00:00Z');
  }
  return { kind: 'once', at };
}

/** The stored (and shown) form of a schedule. */
export function scheduleValue(schedule: Schedule): TaskScheduleValue {
  switch (schedule.kind) {
    case 'cron':
      return { cron: schedule.cron, timezone: schedule.timezone };
    case 'interval':
      return { everySeconds: schedule.everySeconds };
    case 'once':
      return { at: new Date(schedule.at).toISOString() };
  }
}

/** Reads a stored schedule back (stored values were checked when written). */
export function storedSchedule(json: string): Schedule {
  const value = JSON.parse(json) as TaskScheduleValue;
  if ('cron' in value) return { kind: 'cron', cron: value.cron, timezone: value.timezone ?? 'UTC' };
  if ('everySeconds' in value) return { kind: 'interval', everySeconds: value.everySeconds };
  return { kind: 'once', at: Date.parse(value.at) };
}

/** The first due time of a schedule set at `from` (creation, or a change of schedule, or a resume). */
export function firstDueAt(schedule: Schedule, from: number): number | null {
  switch (schedule.kind) {
    case 'cron':
      return cronOf(schedule.cron, schedule.timezone).nextRun(new Date(from))?.getTime() ?? null;
    case 'interval':
      return from + schedule.everySeconds * 1000;
    case 'once':
      return schedule.at;
  }
}

/** What one claim of a task covers. */
export interface DueTimes {
  /** The most recent due time at or before now: the one that runs. */
  latest: number;
  /**
   * Earlier due times also at or before now, most recent first, at most
   * `skippedLimit` of them: due times missed while no instance claimed (every
   * instance down), recorded as `skipped` runs.
   */
  skipped: number[];
  /** The next due time after now; null when the schedule has no more (a one-off task). */
  next: number | null;
}

/**
 * The due times from `nextDueAt` (at or before `now`) through `now`, and the
 * one after. Only the latest runs: a task that was due many times while
 * every instance was down runs once when one starts again, not once per
 * missed time.
 */
export function dueTimesThrough(schedule: Schedule, nextDueAt: number, now: number, skippedLimit: number): DueTimes {
  switch (schedule.kind) {
    case 'once':
      return { latest: nextDueAt, skipped: [], next: null };
    case 'interval': {
      const step = schedule.everySeconds * 1000;
      const behind = Math.max(0, Math.floor((now - nextDueAt) / step));
      const latest = nextDueAt + behind * step;
      const skipped: number[] = [];
      for (let index = 1; index <= Math.min(behind, skippedLimit); index += 1) skipped.push(latest - index * step);
      return { latest, skipped, next: latest + step };
    }
    case 'cron': {
      const cron = cronOf(schedule.cron, schedule.timezone);
      // previousRuns is strict before its reference: one millisecond past `now` includes a time due exactly now.
      const previous = cron
        .previousRuns(skippedLimit + 1, new Date(now + 1))
        .map((date) => date.getTime())
        .filter((time) => time >= nextDueAt && time <= now);
      const latest = previous[0] ?? nextDueAt;
      const next = cron.nextRun(new Date(Math.max(now, latest)))?.getTime() ?? null;
      return { latest, skipped: previous.slice(1), next };
    }
  }
}

import type { Task } from '../../../../src/client/types.js';

/**
 * The schedule as the form holds it: one kind at a time, each with its own
 * fields as text, turned into the `schedule` of docs/tasks.md on submit.
 * The server checks the values (cron syntax, zone names, the minimum
 * interval) and its errors come back at their pointers.
 */
export type ScheduleKind = 'cron' | 'every' | 'at';
export type IntervalUnit = 'minutes' | 'hours' | 'days';

export interface ScheduleDraft {
  kind: ScheduleKind;
  cron: string;
  timezone: string;
  every: string;
  unit: IntervalUnit;
  /** A `datetime-local` value, read in the browser's own zone. */
  at: string;
}

const unitSeconds: Record<IntervalUnit, number> = { minutes: 60, hours: 3600, days: 86_400 };

export const browserTimezone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function emptySchedule(): ScheduleDraft {
  return { kind: 'cron', cron: '0 8 * * 1-5', timezone: browserTimezone(), every: '1', unit: 'hours', at: '' };
}

/** A `datetime-local` value for an instant, in the browser's zone. */
function localInputOf(instant: string): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function draftOf(schedule: Task['schedule']): ScheduleDraft {
  const draft = emptySchedule();
  if ('cron' in schedule) return { ...draft, kind: 'cron', cron: schedule.cron, timezone: schedule.timezone ?? 'UTC' };
  if ('everySeconds' in schedule) {
    const unit = (['days', 'hours', 'minutes'] as const).find(
      (each) => schedule.everySeconds % unitSeconds[each] === 0,
    );
    return unit
      ? { ...draft, kind: 'every', every: String(schedule.everySeconds / unitSeconds[unit]), unit }
      : { ...draft, kind: 'every', every: String(schedule.everySeconds / 60), unit: 'minutes' };
  }
  return { ...draft, kind: 'at', at: localInputOf(schedule.at) };
}

/**
 * The schedule to send. A number or date the browser cannot read is sent as
 * it is, so the server's problem (at its pointer) says what is wrong.
 */
export function scheduleOf(draft: ScheduleDraft): Task['schedule'] {
  if (draft.kind === 'cron') return { cron: draft.cron.trim(), timezone: draft.timezone.trim() || 'UTC' };
  if (draft.kind === 'every') {
    return { everySeconds: Math.round(Number(draft.every) * unitSeconds[draft.unit]) };
  }
  const instant = new Date(draft.at);
  return { at: Number.isNaN(instant.getTime()) ? draft.at : instant.toISOString() };
}

/** The schedule in words for the list: "cron 0 8 * * 1-5 (Europe/Berlin)", "every 10 minutes", "once at …". */
export function describeSchedule(schedule: Task['schedule']): string {
  if ('cron' in schedule) return `cron ${schedule.cron} (${schedule.timezone ?? 'UTC'})`;
  if ('everySeconds' in schedule) {
    const { every, unit } = draftOf(schedule);
    return `every ${every === '1' ? unit.replace(/s$/, '') : `${every} ${unit}`}`;
  }
  return `once at ${new Date(schedule.at).toLocaleString()}`;
}

/** The zones the browser knows, for the time zone field's suggestions. */
export function knownTimezones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['UTC'];
}

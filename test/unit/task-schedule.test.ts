import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dueTimesThrough, firstDueAt, parseRfc3339, parseSchedule } from '../../src/services/tasks/schedule.js';

const iso = (milliseconds: number | null) => (milliseconds === null ? null : new Date(milliseconds).toISOString());

/** The next `count` due times of a cron schedule from `from`, as the scheduler walks them claim by claim. */
function walk(cron: string, timezone: string, from: string, count: number): string[] {
  const schedule = parseSchedule({ cron, timezone }, 60, '/body/schedule');
  const times: string[] = [];
  let due = firstDueAt(schedule, Date.parse(from));
  while (due !== null && times.length < count) {
    times.push(iso(due) as string);
    due = dueTimesThrough(schedule, due, due, 100).next;
  }
  return times;
}

describe('task schedules', () => {
  it('keeps 8:00 in New York across the spring and autumn DST changes', () => {
    // 2026-03-08: clocks go from 2:00 EST to 3:00 EDT; 2026-11-01: from 2:00 EDT back to 1:00 EST.
    assert.deepEqual(walk('0 8 * * *', 'America/New_York', '2026-03-07T00:00:00Z', 3), [
      '2026-03-07T13:00:00.000Z',
      '2026-03-08T12:00:00.000Z',
      '2026-03-09T12:00:00.000Z',
    ]);
    assert.deepEqual(walk('0 8 * * *', 'America/New_York', '2026-10-31T00:00:00Z', 3), [
      '2026-10-31T12:00:00.000Z',
      '2026-11-01T13:00:00.000Z',
      '2026-11-02T13:00:00.000Z',
    ]);
  });

  it('runs a time the spring gap skips once after it, and a time the autumn repeats once, in Berlin', () => {
    // 2026-03-29: 2:00 CET jumps to 3:00 CEST, so 2:30 does not exist that night.
    assert.deepEqual(walk('30 2 * * *', 'Europe/Berlin', '2026-03-28T00:00:00Z', 3), [
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
    // 2026-10-25: 3:00 CEST falls back to 2:00 CET, so 2:30 happens twice; it runs once.
    assert.deepEqual(walk('30 2 * * *', 'Europe/Berlin', '2026-10-24T00:00:00Z', 3), [
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  it('keeps an hourly cron hourly through the night the clocks change', () => {
    const times = walk('0 * * * *', 'Europe/Berlin', '2026-10-24T22:30:00Z', 6).map(Date.parse);
    for (let index = 1; index < times.length; index += 1) {
      assert.equal((times[index] as number) - (times[index - 1] as number), 3_600_000);
    }
  });

  it('runs only the latest of the due times a claim covers, and lists the others as skipped', () => {
    const interval = parseSchedule({ everySeconds: 60 }, 60, '/body/schedule');
    const start = Date.parse('2026-01-01T00:00:00Z');
    const late = dueTimesThrough(interval, start, start + 30_000, 100);
    assert.deepEqual([late.latest, late.skipped, late.next], [start, [], start + 60_000]);
    const behind = dueTimesThrough(interval, start, start + 5 * 60_000 + 10_000, 100);
    assert.equal(behind.latest, start + 5 * 60_000);
    assert.deepEqual(
      behind.skipped,
      [4, 3, 2, 1, 0].map((minutes) => start + minutes * 60_000),
    );
    assert.equal(behind.next, start + 6 * 60_000);
    const capped = dueTimesThrough(interval, start, start + 1_000 * 60_000, 100);
    assert.equal(capped.skipped.length, 100, 'at most the limit of skipped due times');
    assert.equal(capped.skipped[0], capped.latest - 60_000, 'the most recent ones');

    const daily = parseSchedule({ cron: '0 8 * * *', timezone: 'UTC' }, 60, '/body/schedule');
    const cronBehind = dueTimesThrough(
      daily,
      Date.parse('2026-01-01T08:00:00Z'),
      Date.parse('2026-01-04T09:00:00Z'),
      100,
    );
    assert.deepEqual(
      [iso(cronBehind.latest), cronBehind.skipped.map(iso), iso(cronBehind.next)],
      [
        '2026-01-04T08:00:00.000Z',
        ['2026-01-03T08:00:00.000Z', '2026-01-02T08:00:00.000Z', '2026-01-01T08:00:00.000Z'],
        '2026-01-05T08:00:00.000Z',
      ],
    );

    const once = parseSchedule({ at: '2026-01-01T00:00:00Z' }, 60, '/body/schedule');
    assert.deepEqual(dueTimesThrough(once, start, start + 86_400_000, 100), { latest: start, skipped: [], next: null });
  });

  it('reads RFC 3339 date-times with an offset only', () => {
    assert.equal(parseRfc3339('2030-01-31T08:00:00+01:00'), Date.parse('2030-01-31T07:00:00Z'));
    assert.equal(parseRfc3339('2030-01-31t08:00:00.250z'), Date.parse('2030-01-31T08:00:00.250Z'));
    for (const text of ['2030-01-31T08:00:00', '2030-02-29T08:00:00Z', '2030-01-31T24:00:00Z', '31/01/2030', '']) {
      assert.equal(parseRfc3339(text), null, text);
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeSchedule, draftOf, emptySchedule, scheduleOf } from '../../web/src/views/tasks/schedule.js';

/** The dashboard's task form turns its fields into the schedules of docs/tasks.md and back. */
describe("the task form's schedule", () => {
  it('sends each kind as the API takes it', () => {
    const draft = emptySchedule();
    assert.deepEqual(scheduleOf({ ...draft, kind: 'cron', cron: ' 0 8 * * 1-5 ', timezone: 'Europe/Berlin' }), {
      cron: '0 8 * * 1-5',
      timezone: 'Europe/Berlin',
    });
    assert.deepEqual(scheduleOf({ ...draft, kind: 'cron', cron: '@daily', timezone: '' }), {
      cron: '@daily',
      timezone: 'UTC',
    });
    assert.deepEqual(scheduleOf({ ...draft, kind: 'every', every: '10', unit: 'minutes' }), { everySeconds: 600 });
    assert.deepEqual(scheduleOf({ ...draft, kind: 'every', every: '2', unit: 'days' }), { everySeconds: 172_800 });
    const at = scheduleOf({ ...draft, kind: 'at', at: '2030-01-31T08:00' });
    assert.ok('at' in at && Date.parse(at.at) === new Date('2030-01-31T08:00').getTime(), 'local time as an instant');
    // What the browser cannot read goes as typed, for the server to name at its field.
    assert.deepEqual(scheduleOf({ ...draft, kind: 'at', at: 'soon' }), { at: 'soon' });
  });

  it('reads a stored schedule back into the fields, in the largest whole unit', () => {
    assert.deepEqual(
      [3600, 5400, 86_400, 90].map((everySeconds) => {
        const { every, unit } = draftOf({ everySeconds });
        return `${every} ${unit}`;
      }),
      ['1 hours', '90 minutes', '1 days', '1.5 minutes'],
    );
    assert.equal(describeSchedule({ everySeconds: 600 }), 'every 10 minutes');
    assert.equal(describeSchedule({ everySeconds: 3600 }), 'every hour');
    assert.equal(
      describeSchedule({ cron: '0 8 * * 1-5', timezone: 'Europe/Berlin' }),
      'cron 0 8 * * 1-5 (Europe/Berlin)',
    );
  });
});

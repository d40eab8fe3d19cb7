import { useEffect, useRef, useState } from 'preact/hooks';
import type { Agent } from '../../api.js';
import { ApiError } from '../../api.js';
import { Field, assignErrors } from '../../fields.js';
import { messageOf } from '../../ui/resource.js';
import { createTask, updateTask, type Task } from './requests.js';
import {
  draftOf,
  emptySchedule,
  knownTimezones,
  scheduleOf,
  type IntervalUnit,
  type ScheduleDraft,
  type ScheduleKind,
} from './schedule.js';

/** The platforms a task can post to (docs/tasks.md, "Outputs"). */
const postingPlatforms = ['telegram', 'slack', 'discord', 'x', 'bluesky'] as const;
type OutputType = Task['output']['type'];

const pointers = [
  '/name',
  '/instructions',
  '/schedule/cron',
  '/schedule/timezone',
  '/schedule/everySeconds',
  '/schedule/at',
  '/schedule',
  '/output/platform',
  '/output/target',
  '/output',
];

const scheduleKinds: Array<[ScheduleKind, string]> = [
  ['cron', 'On a cron schedule'],
  ['every', 'Every so often'],
  ['at', 'Once'],
];

/**
 * Creates or edits a task in a modal dialog: the schedule as one of three
 * kinds, each with its own fields, the output as a choice. Escape or Cancel
 * closes it unchanged; the server's problems show at their fields.
 */
export function TaskForm({
  agent,
  task,
  onSaved,
  onClose,
}: {
  agent: Agent;
  task: Task | null;
  onSaved: (task: Task) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState(task?.name ?? '');
  const [instructions, setInstructions] = useState(task?.instructions ?? '');
  const [schedule, setSchedule] = useState<ScheduleDraft>(() => (task ? draftOf(task.schedule) : emptySchedule()));
  const [outputType, setOutputType] = useState<OutputType>(task?.output.type ?? 'none');
  const [platform, setPlatform] = useState(task?.output.type === 'platform' ? task.output.platform : '');
  const [target, setTarget] = useState(task?.output.type === 'platform' ? task.output.target : '');
  const [enabled, setEnabled] = useState(task?.enabled ?? true);
  const [errors, setErrors] = useState<ReturnType<typeof assignErrors> | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const agentPlatforms = agent.platforms
    .map((each) => each.type)
    .filter((type): type is (typeof postingPlatforms)[number] =>
      (postingPlatforms as readonly string[]).includes(type),
    );

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const change = (fields: Partial<ScheduleDraft>) => setSchedule((current) => ({ ...current, ...fields }));
  const fieldErrors = (pointer: string) => errors?.byField.get(pointer);

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setErrors(null);
    setProblem(null);
    const output: Task['output'] =
      outputType === 'platform'
        ? { type: 'platform', platform: platform as (typeof postingPlatforms)[number], target: target.trim() }
        : { type: outputType };
    const body = { name: name.trim(), instructions, schedule: scheduleOf(schedule), output, enabled };
    try {
      const saved = task ? await updateTask(agent.id, task.id, body) : await createTask(agent.id, body);
      dialog.current?.close();
      onSaved(saved);
    } catch (caught) {
      const assigned = caught instanceof ApiError ? assignErrors(caught.fieldErrors, pointers) : null;
      setErrors(assigned);
      setProblem(messageOf(caught));
      // Focus goes to the first field the server named, or stays for the message above the buttons.
      requestAnimationFrame(() => dialog.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
    } finally {
      setSaving(false);
    }
  };

  const title = task ? `Edit ${task.name}` : 'New task';
  return (
    <dialog ref={dialog} class="task-dialog" aria-labelledby="task-form-title" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <h3 id="task-form-title">{title}</h3>
        <Field pointer="/name" label="Name" errors={fieldErrors('/name')}>
          {(props) => (
            <input
              {...props}
              type="text"
              required
              maxLength={200}
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field
          pointer="/instructions"
          label="Instructions"
          hint="The message the agent answers at each due time."
          errors={fieldErrors('/instructions')}
        >
          {(props) => (
            <textarea
              {...props}
              rows={4}
              required
              maxLength={8000}
              value={instructions}
              onInput={(e) => setInstructions(e.currentTarget.value)}
            />
          )}
        </Field>
        <fieldset>
          <legend>Schedule</legend>
          <div class="choice-row">
            {scheduleKinds.map(([kind, label]) => (
              <label class="check" key={kind}>
                <input
                  type="radio"
                  name="schedule-kind"
                  value={kind}
                  checked={schedule.kind === kind}
                  onChange={() => change({ kind })}
                />
                {label}
              </label>
            ))}
          </div>
          {fieldErrors('/schedule') && (
            <p class="field-error" role="alert">
              {fieldErrors('/schedule')?.join('; ')}
            </p>
          )}
          {schedule.kind === 'cron' && (
            <div class="grid">
              <Field
                pointer="/schedule/cron"
                label="Cron expression"
                hint="Minute, hour, day of month, month, day of week (0 8 * * 1-5: 8:00 on weekdays), or @daily, @hourly."
                errors={fieldErrors('/schedule/cron')}
              >
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    value={schedule.cron}
                    onInput={(e) => change({ cron: e.currentTarget.value })}
                  />
                )}
              </Field>
              <Field pointer="/schedule/timezone" label="Time zone" errors={fieldErrors('/schedule/timezone')}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    list="task-timezones"
                    value={schedule.timezone}
                    onInput={(e) => change({ timezone: e.currentTarget.value })}
                  />
                )}
              </Field>
              <datalist id="task-timezones">
                {knownTimezones().map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
            </div>
          )}
          {schedule.kind === 'every' && (
            <div class="grid">
              <Field pointer="/schedule/everySeconds" label="Every" errors={fieldErrors('/schedule/everySeconds')}>
                {(props) => (
                  <input
                    {...props}
                    type="number"
                    min={1}
                    step="any"
                    value={schedule.every}
                    onInput={(e) => change({ every: e.currentTarget.value })}
                  />
                )}
              </Field>
              <div class="field">
                <label for="task-every-unit">Unit</label>
                <select
                  id="task-every-unit"
                  value={schedule.unit}
                  onChange={(e) => change({ unit: e.currentTarget.value as IntervalUnit })}
                >
                  <option value="minutes">minutes</option>
                  <option value="hours">hours</option>
                  <option value="days">days</option>
                </select>
              </div>
            </div>
          )}
          {schedule.kind === 'at' && (
            <Field
              pointer="/schedule/at"
              label="Date and time"
              hint={`In your time zone (${Intl.DateTimeFormat().resolvedOptions().timeZone}). A time in the past runs at once.`}
              errors={fieldErrors('/schedule/at')}
            >
              {(props) => (
                <input
                  {...props}
                  type="datetime-local"
                  value={schedule.at}
                  onInput={(e) => change({ at: e.currentTarget.value })}
                />
              )}
            </Field>
          )}
        </fieldset>
        <fieldset>
          <legend>Output</legend>
          <div class="field">
            <label for="task-output">Where the reply goes</label>
            <select
              id="task-output"
              value={outputType}
              onChange={(e) => setOutputType(e.currentTarget.value as OutputType)}
              {...(fieldErrors('/output') ? { 'aria-invalid': 'true', 'aria-describedby': 'task-output-error' } : {})}
            >
              <option value="none">Kept in the run only</option>
              <option value="webhook">A task.completed webhook event</option>
              <option value="platform" disabled={agentPlatforms.length === 0}>
                Posted on a platform{agentPlatforms.length === 0 ? ' (the agent has none)' : ''}
              </option>
            </select>
            {fieldErrors('/output') && (
              <p id="task-output-error" class="field-error">
                {fieldErrors('/output')?.join('; ')}
              </p>
            )}
          </div>
          {outputType === 'platform' && (
            <div class="grid">
              <Field pointer="/output/platform" label="Platform" errors={fieldErrors('/output/platform')}>
                {(props) => (
                  <select {...props} value={platform} onChange={(e) => setPlatform(e.currentTarget.value)}>
                    <option value="">Choose…</option>
                    {agentPlatforms.map((type) => (
                      <option key={type} value={type}>
                        {type}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field
                pointer="/output/target"
                label="Target"
                hint="A chat or channel id; on X and Bluesky `timeline` or the post to answer."
                errors={fieldErrors('/output/target')}
              >
                {(props) => (
                  <input {...props} type="text" value={target} onInput={(e) => setTarget(e.currentTarget.value)} />
                )}
              </Field>
            </div>
          )}
        </fieldset>
        <label class="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          Enabled
        </label>
        {problem && (
          <p class="problem" role="alert">
            {problem}
            {errors?.unplaced.map((each) => ` ${each.path} ${each.message}`).join(';')}
          </p>
        )}
        <div class="actions">
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" disabled={saving}>
            {saving ? 'Saving…' : task ? 'Save task' : 'Create task'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

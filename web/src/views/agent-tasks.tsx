import { useRef, useState } from 'preact/hooks';
import type { Agent } from '../api.js';
import { Loaded, messageOf, useResource } from '../ui/resource.js';
import { timeOf } from './runs/format.js';
import { listTasks, runTask, updateTask, type Task } from './tasks/requests.js';
import { describeSchedule } from './tasks/schedule.js';
import { DeleteTaskDialog } from './tasks/delete-task-dialog.js';
import { TaskForm } from './tasks/task-form.js';
import { TaskRuns } from './tasks/task-runs.js';

/**
 * An agent's Tasks tab: its tasks with their schedule and next due time;
 * create and edit them in a form, enable or disable, run now, delete; and a
 * task's runs with each run's output and events.
 */
export function AgentTasks({ agent }: { agent: Agent; onChanged?: (agent: Agent) => void }) {
  const [resource, reload] = useResource((signal) => listTasks(agent.id, signal), [agent.id]);
  const [editing, setEditing] = useState<Task | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Task | null>(null);
  const [selected, setSelected] = useState<{ taskId: string; runId: string | null } | null>(null);
  const [runsVersion, setRunsVersion] = useState(0);
  const [notice, setNotice] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);

  const act = async (what: () => Promise<string>) => {
    setProblem(null);
    try {
      setNotice(await what());
      reload();
    } catch (caught) {
      setNotice('');
      setProblem(messageOf(caught));
    }
  };
  const toggle = (task: Task) =>
    act(async () => {
      await updateTask(agent.id, task.id, { enabled: !task.enabled });
      return `${task.name} ${task.enabled ? 'disabled' : 'enabled'}.`;
    });
  const runNow = (task: Task) =>
    act(async () => {
      const run = await runTask(agent.id, task.id);
      setSelected({ taskId: task.id, runId: run.id });
      setRunsVersion((value) => value + 1);
      return `${task.name} started: run ${run.id}.`;
    });

  return (
    <section aria-labelledby="tasks-title" class="agent-tasks">
      <div class="section-head">
        <h2 id="tasks-title" tabIndex={-1}>
          Tasks
        </h2>
        <button type="button" ref={newButton} onClick={() => setEditing('new')}>
          New task
        </button>
      </div>
      <p role="status" class="notice-line">
        {notice}
      </p>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <Loaded
        resource={resource}
        what="tasks"
        onRetry={reload}
        isEmpty={(page) => page.data.length === 0}
        empty={<p>No tasks yet. A task is work the agent does on its own, on a schedule: add one with New task.</p>}
      >
        {(page) => (
          <table class="tasks-table">
            <caption class="visually-hidden">Tasks of {agent.name}</caption>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Schedule</th>
                <th scope="col">Next due</th>
                <th scope="col">Last run</th>
                <th scope="col">Enabled</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((task) => (
                <tr key={task.id} aria-current={selected?.taskId === task.id ? 'true' : undefined}>
                  <th scope="row">{task.name}</th>
                  <td data-label="Schedule">{describeSchedule(task.schedule)}</td>
                  <td data-label="Next due">{task.nextDueAt ? timeOf(task.nextDueAt) : '—'}</td>
                  <td data-label="Last run">
                    {task.lastRunStatus ? `${task.lastRunStatus}, ${timeOf(task.lastRunAt)}` : 'never'}
                    {task.pausedReason && <p class="hint">{task.pausedReason}</p>}
                    {!task.pausedReason && task.lastError && <p class="hint">{task.lastError}</p>}
                  </td>
                  <td data-label="Enabled">
                    <label class="check">
                      <input
                        type="checkbox"
                        checked={task.enabled}
                        onChange={() => void toggle(task)}
                        aria-label={`${task.name} enabled`}
                      />
                      {task.enabled ? 'yes' : task.pausedReason ? 'paused' : 'no'}
                    </label>
                  </td>
                  <td>
                    <div class="row-actions">
                      <button type="button" onClick={() => void runNow(task)} aria-label={`Run now: ${task.name}`}>
                        Run now
                      </button>
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Runs of ${task.name}`}
                        aria-pressed={selected?.taskId === task.id}
                        onClick={() =>
                          setSelected(selected?.taskId === task.id ? null : { taskId: task.id, runId: null })
                        }
                      >
                        Runs
                      </button>
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Edit ${task.name}`}
                        onClick={() => setEditing(task)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        class="danger"
                        aria-label={`Delete ${task.name}`}
                        onClick={() => setDeleting(task)}
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
      {resource.status === 'ready' &&
        selected &&
        (() => {
          const task = resource.data.data.find((each) => each.id === selected.taskId);
          return task ? (
            <TaskRuns agentId={agent.id} task={task} shownRunId={selected.runId} version={runsVersion} />
          ) : null;
        })()}
      {deleting && (
        <DeleteTaskDialog
          agentId={agent.id}
          task={deleting}
          onDeleted={() => {
            if (selected?.taskId === deleting.id) setSelected(null);
            setNotice(`${deleting.name} deleted.`);
            reload();
          }}
          onClose={() => {
            setDeleting(null);
            newButton.current?.focus();
          }}
        />
      )}
      {editing && (
        <TaskForm
          agent={agent}
          task={editing === 'new' ? null : editing}
          onSaved={(task) => {
            setNotice(`${task.name} saved.`);
            reload();
          }}
          onClose={() => {
            setEditing(null);
            newButton.current?.focus();
          }}
        />
      )}
    </section>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { Loaded, useResource } from '../../ui/resource.js';
import { durationOf, timeOf } from '../runs/format.js';
import { listRuns } from '../runs/requests.js';
import { RunDetail } from '../runs/run-detail.js';
import type { Task } from './requests.js';

/**
 * A task's runs, newest first (status, trigger, start, duration), and the
 * one chosen with its output and events. `shownRunId` opens a run from
 * outside (the one "Run now" just started); `version` reloads the list.
 */
export function TaskRuns({
  agentId,
  task,
  shownRunId,
  version,
}: {
  agentId: string;
  task: Task;
  shownRunId: string | null;
  version: number;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  const [resource, reload] = useResource(
    (signal) => listRuns(agentId, { task: task.id, limit: 20 }, signal),
    [agentId, task.id, version],
  );
  useEffect(() => setChosen(null), [shownRunId]);
  const openRunId = chosen ?? shownRunId;

  return (
    <section class="task-runs" aria-labelledby={`runs-of-${task.id}`}>
      <h3 id={`runs-of-${task.id}`} tabIndex={-1}>
        Runs of {task.name}
      </h3>
      <Loaded
        resource={resource}
        what="runs"
        onRetry={reload}
        isEmpty={(page) => page.data.length === 0}
        empty={<p>No runs yet: the first comes at the next due time, or with Run now.</p>}
      >
        {(page) => (
          <table class="runs-table">
            <caption class="visually-hidden">Runs of {task.name}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Trigger</th>
                <th scope="col">Started</th>
                <th scope="col">Duration</th>
                <th scope="col">Output</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((run) => (
                <tr key={run.id}>
                  <td data-label="Status">
                    <span class={`run-status run-${run.status}`}>{run.status}</span>
                  </td>
                  <td data-label="Trigger">
                    {run.dueAt ? `${run.trigger} (due ${timeOf(run.dueAt)})` : `${run.trigger} (run now)`}
                  </td>
                  <td data-label="Started">{timeOf(run.startedAt ?? run.createdAt)}</td>
                  <td data-label="Duration">{durationOf(run.startedAt, run.finishedAt)}</td>
                  <td data-label="Output">
                    <button
                      type="button"
                      class="secondary"
                      aria-pressed={openRunId === run.id}
                      aria-label={`${openRunId === run.id ? 'Hide' : 'Show'} run ${run.id}`}
                      onClick={() => setChosen(openRunId === run.id ? '' : run.id)}
                    >
                      {openRunId === run.id ? 'Hide' : 'Show'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
      {openRunId && (
        <RunDetail
          key={openRunId}
          agentId={agentId}
          runId={openRunId}
          onStatus={(status) => {
            // The list shows the run's status too: read it again when the run has ended.
            if (status !== 'queued' && status !== 'running') reload();
          }}
        />
      )}
    </section>
  );
}

import { useEffect, useState } from 'preact/hooks';
import type { Agent } from '../../api.js';
import { hrefOf } from '../../route.js';
import { Loaded, messageOf, useResource, type Resource } from '../../ui/resource.js';
import { Time } from '../time.js';
import { activeStatuses, cancelEval, listEvals } from './requests.js';
import type { EvalSummary } from './types.js';

/** How often a view reads an eval that is still going again. */
export const refreshMs = 2000;

/** Reads `resource` again every 2 s while `active` holds (a new answer re-arms the timer). */
export function useRefreshWhile<T>(resource: Resource<T>, active: (data: T) => boolean, reload: () => void): void {
  const going = resource.status === 'ready' && active(resource.data);
  useEffect(() => {
    if (!going) return;
    const timer = setTimeout(reload, refreshMs);
    return () => clearTimeout(timer);
  }, [going, resource]);
}

/** `v3 17/20 · v4 19/20`: the cases every scorer passed, per version. */
export function passedText(evaluation: EvalSummary): string {
  if (evaluation.totals.length === 0) return '—';
  return evaluation.totals.map((total) => `v${total.version} ${total.passed}/${total.cases}`).join(' · ');
}

/**
 * The agent's evals, newest first, with status and progress; read again
 * every 2 s while one is queued or running, which can be cancelled.
 * `generation` changes when one has been started here.
 */
export function EvalList({ agent, generation }: { agent: Agent; generation: number }) {
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const [page, reload] = useResource((signal) => listEvals(agent.id, cursor, signal), [agent.id, cursor, generation]);
  useRefreshWhile(page, (data) => data.data.some((each) => activeStatuses.has(each.status)), reload);
  const [problem, setProblem] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<string | null>(null);

  const cancel = async (evaluation: EvalSummary) => {
    setProblem(null);
    setCancelling(evaluation.id);
    try {
      await cancelEval(agent.id, evaluation.id);
    } catch (caught) {
      setProblem(messageOf(caught));
    } finally {
      setCancelling(null);
      reload();
    }
  };

  return (
    <section aria-labelledby="eval-list-title" class="eval-list">
      <div class="section-head">
        <h3 id="eval-list-title">{agent.name}’s evals</h3>
        <button type="button" class="secondary" onClick={reload}>
          Refresh
        </button>
      </div>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <Loaded
        resource={page}
        what="evals"
        onRetry={reload}
        isEmpty={(data) => data.data.length === 0 && cursors.length === 1}
        empty={<p>No evals yet: start one above.</p>}
      >
        {(data) => (
          <>
            <table class="admin-table evals-table">
              <caption class="visually-hidden">Evals, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Dataset</th>
                  <th scope="col">Versions</th>
                  <th scope="col">Status</th>
                  <th scope="col">Progress</th>
                  <th scope="col">Passed</th>
                  <th scope="col">Started</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((evaluation) => (
                  <tr key={evaluation.id}>
                    <th scope="row">
                      <a href={hrefOf({ name: 'agent', agentId: agent.id, tab: 'evals', evalId: evaluation.id })}>
                        {evaluation.datasetName}
                        <span class="visually-hidden"> ({evaluation.id})</span>
                      </a>
                    </th>
                    <td data-label="Versions">{evaluation.versions.map((version) => `v${version}`).join(' and ')}</td>
                    <td data-label="Status">
                      <EvalStatus evaluation={evaluation} />
                    </td>
                    <td data-label="Progress">
                      <Progress evaluation={evaluation} />
                    </td>
                    <td data-label="Passed">
                      {passedText(evaluation)}
                      {evaluation.versions.length === 2 && evaluation.totals.length > 0 && (
                        <span class="hint"> · {evaluation.differing} differing</span>
                      )}
                    </td>
                    <td data-label="Started">
                      <Time value={evaluation.startedAt ?? evaluation.createdAt} />
                    </td>
                    <td class="row-actions">
                      {activeStatuses.has(evaluation.status) && (
                        <button
                          type="button"
                          class="secondary"
                          disabled={cancelling === evaluation.id}
                          aria-label={`Cancel the eval of ${evaluation.datasetName}`}
                          onClick={() => cancel(evaluation)}
                        >
                          {cancelling === evaluation.id ? 'Cancelling…' : 'Cancel'}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div class="actions">
              {cursors.length > 1 && (
                <button type="button" class="secondary" onClick={() => setCursors(cursors.slice(0, -1))}>
                  Newer evals
                </button>
              )}
              {data.pagination.nextCursor && (
                <button
                  type="button"
                  class="secondary"
                  onClick={() => setCursors([...cursors, data.pagination.nextCursor])}
                >
                  Older evals
                </button>
              )}
            </div>
          </>
        )}
      </Loaded>
    </section>
  );
}

export function EvalStatus({ evaluation }: { evaluation: EvalSummary }) {
  return <span class={`run-status eval-${evaluation.status}`}>{evaluation.status}</span>;
}

/** Results recorded of all there will be (cases × versions), as a bar and in words. */
export function Progress({ evaluation }: { evaluation: EvalSummary }) {
  const { done, total } = evaluation.progress;
  return (
    <span class="eval-progress">
      <progress value={done} max={Math.max(total, 1)} aria-label={`${done} of ${total} results`} />
      <span aria-hidden="true">
        {' '}
        {done}/{total}
      </span>
    </span>
  );
}

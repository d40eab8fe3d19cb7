import { useEffect, useRef } from 'preact/hooks';
import { api } from '../../api.js';
import { hrefOf } from '../../route.js';
import { Loaded, useResource } from '../../ui/resource.js';
import { ConfirmButton } from '../confirm-button.js';
import { durationOf, timeOf } from './format.js';
import { cancellableStatuses, cancelRun, getRun, getRunSteps, type Run } from './requests.js';
import { RunTimeline } from './run-timeline.js';
import './runs.css';

/** How often a run still going is read again: often enough to watch its steps arrive. */
const refreshMs = 2000;

/**
 * One run's page: what it was asked and how it ended, Cancel while it is
 * queued or running, and its steps as a timeline (each model step opens the
 * prompt it was sent). A run still going is read again every 2 s until it
 * has ended, then its steps once more.
 */
export function RunPage({ agentId, runId }: { agentId: string; runId: string }) {
  const [runResource, reloadRun] = useResource((signal) => getRun(agentId, runId, signal), [agentId, runId]);
  const [stepsResource, reloadSteps] = useResource((signal) => getRunSteps(agentId, runId, signal), [agentId, runId]);
  // The agent's name for the header; the run's page works without it.
  const [agentResource] = useResource(() => api.getAgent(agentId), [agentId]);
  const run = runResource.status === 'ready' ? runResource.data : null;
  const going = run !== null && cancellableStatuses.has(run.status);

  const wasGoing = useRef(false);
  useEffect(() => {
    if (going) {
      wasGoing.current = true;
      const timer = setInterval(() => {
        reloadRun();
        reloadSteps();
      }, refreshMs);
      return () => clearInterval(timer);
    }
    // The steps read with the run's last "running" may lack its last step.
    if (wasGoing.current) reloadSteps();
    wasGoing.current = false;
    return undefined;
  }, [going]);

  const agentName = agentResource.status === 'ready' ? agentResource.data.name : null;
  return (
    <section class="run-page" aria-labelledby="run-title">
      <p class="hint">
        <a href={hrefOf({ name: 'runs' })}>Runs</a>
        {' › '}
        <a href={hrefOf({ name: 'agent', agentId, tab: 'runs' })}>{agentName ?? agentId}</a>
      </p>
      <Loaded resource={runResource} what="the run" onRetry={reloadRun}>
        {(data) => (
          <>
            <div class="section-head">
              <h1 id="run-title" tabIndex={-1}>
                Run <code>{data.id}</code> <span class={`run-status run-${data.status}`}>{data.status}</span>
              </h1>
              {cancellableStatuses.has(data.status) && !data.cancelRequestedAt && (
                <ConfirmButton
                  label="Cancel run"
                  title="Cancel this run?"
                  text="Its model call and any tool running are stopped; what it said so far is kept."
                  confirmLabel="Stop the run"
                  busyLabel="Stopping…"
                  danger
                  onConfirm={async () => {
                    await cancelRun(agentId, runId);
                    reloadRun();
                    reloadSteps();
                  }}
                />
              )}
            </div>
            <RunFacts run={data} agentName={agentName} />
            <h2>Input</h2>
            <p class="run-input">{data.input || '(no input)'}</p>
            <h2>Outcome</h2>
            <RunOutcome run={data} />
          </>
        )}
      </Loaded>
      <h2 id="run-steps-title">Steps</h2>
      <Loaded
        resource={stepsResource}
        what="the run’s steps"
        onRetry={reloadSteps}
        isEmpty={(steps) => steps.data.length === 0}
        empty={<p>{going ? 'No step has completed yet.' : 'This run recorded no steps.'}</p>}
      >
        {(steps) => <RunTimeline agentId={agentId} runId={runId} steps={steps} run={run} />}
      </Loaded>
    </section>
  );
}

function RunFacts({ run, agentName }: { run: Run; agentName: string | null }) {
  const { agentId } = run;
  return (
    <dl class="run-facts">
      <dt>Agent</dt>
      <dd>
        <a href={hrefOf({ name: 'agent', agentId, tab: 'chat' })}>{agentName ?? <code>{agentId}</code>}</a>
      </dd>
      <dt>Trigger</dt>
      <dd>
        {run.trigger}
        {run.background ? ' (background)' : ''}
        {run.taskId && (
          <>
            {' · '}
            <a href={hrefOf({ name: 'agent', agentId, tab: 'tasks' })}>task {run.taskId}</a>
          </>
        )}
      </dd>
      <dt>Version</dt>
      <dd>
        {run.agentVersion === null ? (
          '—'
        ) : (
          <a href={hrefOf({ name: 'agent', agentId, tab: 'versions' })}>version {run.agentVersion}</a>
        )}
      </dd>
      <dt>Created</dt>
      <dd>{timeOf(run.createdAt)}</dd>
      <dt>Started</dt>
      <dd>{timeOf(run.startedAt)}</dd>
      <dt>Finished</dt>
      <dd>{timeOf(run.finishedAt)}</dd>
      <dt>Duration</dt>
      <dd>{durationOf(run.startedAt, run.finishedAt)}</dd>
      {(run.userId || run.roomId) && (
        <>
          <dt>From</dt>
          <dd>
            {run.userId ? `user ${run.userId}` : ''}
            {run.userId && run.roomId ? ', ' : ''}
            {run.roomId ? `room ${run.roomId}` : ''}
          </dd>
        </>
      )}
      {run.takeovers > 0 && (
        <>
          <dt>Taken over</dt>
          <dd>{run.takeovers === 1 ? 'once' : `${run.takeovers} times`} by another instance</dd>
        </>
      )}
      {run.cancelRequestedAt && (
        <>
          <dt>Cancel asked</dt>
          <dd>{timeOf(run.cancelRequestedAt)}</dd>
        </>
      )}
    </dl>
  );
}

/** How the run ended: its reply's text, or the problem it failed (or was cancelled) with. */
function RunOutcome({ run }: { run: Run }) {
  if (run.status === 'queued' || run.status === 'running') {
    return (
      <p role="status" class="hint">
        The run is {run.status}; this page follows it until it ends.
      </p>
    );
  }
  return (
    <div class="run-outcome">
      {run.error && (
        <p class="problem run-error">
          <strong>{run.error.title}</strong>
          {run.error.detail ? `: ${run.error.detail}` : ''}
        </p>
      )}
      {run.reply ? (
        <>
          <p class="run-reply">{run.reply.text || '(no text)'}</p>
          <p class="hint">
            Finish reason: {run.reply.finishReason}
            {run.status === 'waiting' ? '; the reply goes on in a run of its own once its approvals are decided.' : ''}
          </p>
        </>
      ) : (
        !run.error && <p class="hint">No reply ({run.status}).</p>
      )}
    </div>
  );
}

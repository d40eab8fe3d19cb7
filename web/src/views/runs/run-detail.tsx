import { useEffect, useState } from 'preact/hooks';
import { Loaded, messageOf, useResource } from '../../ui/resource.js';
import { durationOf, jsonLine, timeOf } from './format.js';
import { followRunEvents, getRun, settledStatuses, type Run, type RunEvent } from './requests.js';

/**
 * One run: what it answered (its reply, the tools it called, or why it
 * failed) and the events it sent. A run still going is followed through its
 * event stream, and read again once the stream has ended.
 */
export function RunDetail({
  agentId,
  runId,
  onStatus,
  level = 4,
}: {
  agentId: string;
  runId: string;
  /** The heading level under the section showing it. */
  level?: 3 | 4;
  /** Told each status the run is read with, so a list showing it can follow. */
  onStatus?: (status: Run['status']) => void;
}) {
  const [resource, reload] = useResource((signal) => getRun(agentId, runId, signal), [agentId, runId]);
  const run = resource.status === 'ready' ? resource.data : null;
  const going = run !== null && !settledStatuses.has(run.status);
  useEffect(() => {
    if (run) onStatus?.(run.status);
  }, [run?.status]);
  const [events, setEvents] = useState<RunEvent[]>([]);
  const [streamProblem, setStreamProblem] = useState<string | null>(null);

  useEffect(() => {
    setEvents([]);
    setStreamProblem(null);
    if (run === null) return;
    const controller = new AbortController();
    (async () => {
      const seen: RunEvent[] = [];
      try {
        for await (const event of followRunEvents(agentId, runId, controller.signal)) {
          seen.push(event);
          setEvents([...seen]);
        }
        if (going) reload();
      } catch (caught) {
        if (!controller.signal.aborted) setStreamProblem(messageOf(caught, 'The run’s events could not be read.'));
      }
    })();
    return () => controller.abort();
    // Followed once per run, and again when it was still going: the stream ends with the run.
  }, [agentId, runId, run === null, going]);

  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <Loaded resource={resource} what="the run" onRetry={reload}>
      {(data) => (
        <article class="run-detail" aria-labelledby={`run-${data.id}`}>
          <Heading id={`run-${data.id}`}>
            Run <code>{data.id}</code> <span class={`run-status run-${data.status}`}>{data.status}</span>
          </Heading>
          <dl class="run-facts">
            <dt>Trigger</dt>
            <dd>{data.trigger}</dd>
            <dt>Started</dt>
            <dd>{timeOf(data.startedAt ?? data.createdAt)}</dd>
            <dt>Duration</dt>
            <dd>{durationOf(data.startedAt, data.finishedAt)}</dd>
          </dl>
          <RunOutput run={data} />
          <details class="run-events">
            <summary>
              Events ({events.length}){going ? ', following' : ''}
            </summary>
            {streamProblem && (
              <p class="problem" role="alert">
                {streamProblem}
              </p>
            )}
            <ol>
              {events.map((event) => (
                <li key={event.id}>
                  <code>{event.id}</code> {event.type} <span class="hint">{summaryOf(event)}</span>
                </li>
              ))}
            </ol>
          </details>
        </article>
      )}
    </Loaded>
  );
}

function RunOutput({ run }: { run: Run }) {
  if (!settledStatuses.has(run.status)) {
    return (
      <p role="status" class="hint">
        The run is {run.status}; its reply appears here when it ends.
      </p>
    );
  }
  if (run.error) {
    return (
      <p class="problem run-error">
        {run.error.title}: {run.error.detail}
      </p>
    );
  }
  const reply = run.reply;
  if (!reply) return <p class="hint">No reply ({run.status}).</p>;
  return (
    <div class="run-output">
      {reply.toolCalls.length > 0 && (
        <ul class="run-tools">
          {reply.toolCalls.map((call) => (
            <li key={call.toolCallId} class="tool-call">
              Tool {call.name} <code>{jsonLine(call.input)}</code>
              {call.approval
                ? ` (${call.approval.status}${call.approval.reason ? `: ${call.approval.reason}` : ''})`
                : ''}
              {call.error !== undefined ? ` failed: ${call.error}` : ''}
              {call.output !== undefined && (
                <>
                  {' → '}
                  <code>{jsonLine(call.output)}</code>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {reply.finishReason === 'approval_required' ? (
        <p class="hint">The reply paused for an approval; it goes on in a run of its own once decided.</p>
      ) : (
        <p class="run-reply">{reply.text || '(no text)'}</p>
      )}
    </div>
  );
}

function summaryOf(event: RunEvent): string {
  const { data } = event;
  if (event.type === 'message.delta' && typeof data.text === 'string') return jsonLine(data.text, 80);
  if (typeof data.name === 'string') return data.name;
  return '';
}

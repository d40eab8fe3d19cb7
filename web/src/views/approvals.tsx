import { useEffect, useState } from 'preact/hooks';
import { Loaded, useResource } from '../ui/resource.js';
import { ApprovalItem } from './approvals/approval-item.js';
import { listPendingApprovals, namesOf, type Approval } from './approvals/requests.js';
import { RunDetail } from './runs/run-detail.js';

const refreshMs = 30_000;

/**
 * Pending approvals across the account's agents: each tool call that waits
 * for a person, approved or denied here; the decisions taken on this page
 * stay below with the run that goes on with the reply.
 */
export function ApprovalsView(_props: object) {
  const [resource, reload] = useResource(async (signal) => {
    const page = await listPendingApprovals(undefined, signal);
    return { page, names: await namesOf(page.data.map((approval) => approval.agentId)) };
  }, []);
  const [decided, setDecided] = useState<Approval[]>([]);
  const [notice, setNotice] = useState('');
  // New requests appear without a click, and the countdowns (read at each render) move on.
  useEffect(() => {
    const timer = setInterval(reload, refreshMs);
    return () => clearInterval(timer);
  }, [reload]);

  const onDecided = (approval: Approval) => {
    setDecided((current) => [approval, ...current]);
    setNotice(`${approval.name} ${approval.status}.`);
    reload();
  };

  return (
    <section aria-labelledby="approvals-title" class="approvals-view">
      <div class="section-head">
        <h1 id="approvals-title" tabIndex={-1}>
          Approvals
        </h1>
        <button type="button" class="secondary" onClick={reload}>
          Refresh
        </button>
      </div>
      <p class="hint">
        Tool calls that wait for a person's decision before they run. Approve and the tool runs and the reply goes on;
        deny and it never runs, and the model is told why.
      </p>
      <p role="status" class="notice-line">
        {notice}
      </p>
      <Loaded
        resource={resource}
        what="approvals"
        onRetry={reload}
        isEmpty={({ page }) => page.data.length === 0}
        empty={<p>Nothing waits for a decision.</p>}
      >
        {({ page, names }) => (
          <>
            <p class="hint">
              {page.data.length} pending{page.pagination.hasMore ? ' (the newest; decide these to see more)' : ''}.
            </p>
            <ul class="approvals" aria-label="Pending approvals">
              {page.data.map((approval) => (
                <ApprovalItem
                  key={approval.id}
                  approval={approval}
                  agentName={names.get(approval.agentId) ?? approval.agentId}
                  onDecided={onDecided}
                />
              ))}
            </ul>
          </>
        )}
      </Loaded>
      {decided.length > 0 && (
        <section aria-labelledby="decided-title" class="decided">
          <h2 id="decided-title">Decided here</h2>
          <ul class="decided-list">
            {decided.map((approval) => (
              <li key={approval.id}>
                <p>
                  <span class="tool-name">{approval.name}</span> <code>{JSON.stringify(approval.input)}</code>{' '}
                  <span class={`decision decision-${approval.status}`}>{approval.status}</span>
                  {approval.reason ? `: ${approval.reason}` : ''}
                </p>
                {approval.resumedRunId ? (
                  <RunDetail agentId={approval.agentId} runId={approval.resumedRunId} level={3} />
                ) : (
                  <p class="hint">The reply goes on once the other calls of its run are decided.</p>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}

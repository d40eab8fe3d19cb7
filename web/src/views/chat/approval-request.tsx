import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api.js';
import { messageOf } from '../../ui/resource.js';
import { timeLeft } from '../approvals/time-left.js';
import type { ApprovalRequest } from './reply-state.js';
import { decideApproval, getApproval, type Approval } from './requests.js';

/** How often the time left is read again while a call waits: it is shown to the minute. */
const countdownMs = 30_000;

/**
 * A tool call the reply paused on, in place in the chat: the tool, its input,
 * how long a decision may still be taken, and Approve or Deny with an optional
 * reason the model reads. Once decided it says how; `onDecided` gets the
 * approval as the server holds it (naming the resumed run when it was the
 * last call of its run to be decided).
 */
export function ApprovalRequestItem({
  agentId,
  approval,
  onDecided,
}: {
  agentId: string;
  approval: ApprovalRequest;
  onDecided: (decided: Approval) => void;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [deciding, setDeciding] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const decided = approval.decision;
  const titleId = `approval-${approval.approvalId}`;
  const reasonId = `approval-reason-${approval.approvalId}`;

  useEffect(() => {
    if (decided) return;
    const timer = setInterval(() => setNow(Date.now()), countdownMs);
    return () => clearInterval(timer);
  }, [decided]);

  const decide = async (decision: 'approve' | 'deny') => {
    setDeciding(true);
    setProblem(null);
    try {
      const trimmed = reason.trim();
      onDecided(
        await decideApproval(agentId, approval.approvalId, { decision, ...(trimmed ? { reason: trimmed } : {}) }),
      );
    } catch (caught) {
      // Decided meanwhile (another tab, the Approvals view, the API) or expired: show what holds, and follow its run.
      const current =
        caught instanceof ApiError && caught.status === 409
          ? await getApproval(agentId, approval.approvalId).catch(() => null)
          : null;
      setProblem(current && current.status !== 'pending' ? `Already ${current.status}.` : messageOf(caught));
      if (current && current.status !== 'pending') onDecided(current);
    } finally {
      setDeciding(false);
    }
  };

  return (
    <div class="chat-approval" role="group" aria-labelledby={titleId}>
      <p id={titleId} class="chat-approval-title">
        <span class="tool-name">{approval.name}</span>{' '}
        {decided ? (
          <>
            <span class={`decision decision-${decided.status}`}>{decided.status}</span>
            {decided.reason ? `: ${decided.reason}` : ''}
          </>
        ) : (
          <>
            waits for your approval · <time dateTime={approval.expiresAt}>{timeLeft(approval.expiresAt, now)}</time>
          </>
        )}
      </p>
      <pre class="approval-input" aria-label={`Input of ${approval.name}`}>
        {JSON.stringify(approval.input, null, 2)}
      </pre>
      {decided && !decided.resumedRunId && (
        <p class="hint">The reply goes on once the other calls waiting here are decided.</p>
      )}
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {!decided && (
        <>
          <div class="field">
            <label for={reasonId}>Reason (optional, told to the model)</label>
            <input
              id={reasonId}
              type="text"
              maxLength={1000}
              value={reason}
              onInput={(event) => setReason(event.currentTarget.value)}
            />
          </div>
          <div class="actions">
            <button type="button" disabled={deciding} aria-describedby={titleId} onClick={() => void decide('approve')}>
              Approve
            </button>
            <button
              type="button"
              class="danger"
              disabled={deciding}
              aria-describedby={titleId}
              onClick={() => void decide('deny')}
            >
              Deny
            </button>
          </div>
        </>
      )}
    </div>
  );
}

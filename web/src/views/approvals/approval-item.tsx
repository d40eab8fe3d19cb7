import { useState } from 'preact/hooks';
import { hrefOf } from '../../route.js';
import { messageOf } from '../../ui/resource.js';
import { timeOf } from '../runs/format.js';
import { decideApproval, type Approval } from './requests.js';
import { timeLeft } from './time-left.js';

/**
 * One pending tool call: which agent wants to run which tool with what
 * arguments, how long a decision may still be taken, and approve or deny
 * with an optional reason the model reads.
 */
export function ApprovalItem({
  approval,
  agentName,
  onDecided,
}: {
  approval: Approval;
  agentName: string;
  onDecided: (decided: Approval) => void;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [deciding, setDeciding] = useState(false);
  const reasonId = `reason-${approval.id}`;

  const decide = async (decision: 'approve' | 'deny') => {
    setDeciding(true);
    setProblem(null);
    try {
      const trimmed = reason.trim();
      onDecided(await decideApproval(approval, { decision, ...(trimmed ? { reason: trimmed } : {}) }));
    } catch (caught) {
      setProblem(messageOf(caught));
    } finally {
      setDeciding(false);
    }
  };

  return (
    <li class="approval card" aria-labelledby={`title-${approval.id}`}>
      <h2 id={`title-${approval.id}`} class="approval-title">
        <span class="tool-name">{approval.name}</span> for{' '}
        <a href={hrefOf({ name: 'agent', agentId: approval.agentId, tab: 'chat' })}>{agentName}</a>
      </h2>
      <p class="hint">
        Asked {timeOf(approval.createdAt)}
        {approval.userId ? ` by ${approval.userId}` : ''}
        {approval.roomId ? ` in ${approval.roomId}` : ''} ·{' '}
        <time dateTime={approval.expiresAt} title={`Expires ${timeOf(approval.expiresAt)}`}>
          {timeLeft(approval.expiresAt, Date.now())}
        </time>
      </p>
      <pre class="approval-input" aria-label={`Arguments of ${approval.name}`}>
        {JSON.stringify(approval.input, null, 2)}
      </pre>
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
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <div class="actions">
        <button
          type="button"
          disabled={deciding}
          aria-describedby={`title-${approval.id}`}
          onClick={() => void decide('approve')}
        >
          Approve
        </button>
        <button
          type="button"
          class="danger"
          disabled={deciding}
          aria-describedby={`title-${approval.id}`}
          onClick={() => void decide('deny')}
        >
          Deny
        </button>
      </div>
    </li>
  );
}

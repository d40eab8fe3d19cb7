import type { Approval } from './requests.js';
import { runHref } from './requests.js';
import { ApprovalRequestItem } from './approval-request.js';
import { Citations } from './citations.js';
import type { Entry, ToolLine } from './reply-state.js';

const brief = (value: unknown) => {
  const text = JSON.stringify(value);
  return text === undefined ? '' : text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

function ToolCallLine({ tool }: { tool: ToolLine }) {
  const decision = tool.approval;
  return (
    <div class="tool-call" data-tool={tool.name}>
      <span class="tool-name">Tool {tool.name}</span> <code>{brief(tool.input)}</code>
      {decision && decision.status !== 'approved' ? (
        <span class="tool-error">
          {' '}
          {decision.status}
          {decision.reason ? `: ${decision.reason}` : ''} (not run)
        </span>
      ) : tool.error !== undefined ? (
        <span class="tool-error"> failed: {tool.error}</span>
      ) : tool.output !== undefined ? (
        <>
          {' → '}
          <code class="tool-output">{brief(tool.output)}</code>
          {tool.durationMs !== undefined && <span class="hint"> ({tool.durationMs} ms)</span>}
          {decision && <span class="hint"> · approved</span>}
        </>
      ) : (
        <span class="hint"> running…</span>
      )}
    </div>
  );
}

/**
 * One turn of the chat: the user's message, or a reply with its tool calls,
 * the calls it paused on (decided here), its text, its sources and a link to
 * its run.
 */
export function Turn({
  entry,
  agentId,
  speaker,
  onDecided,
}: {
  entry: Entry;
  agentId: string;
  speaker: string;
  onDecided: (entry: Entry, decided: Approval) => void;
}) {
  const paused = entry.finishReason === 'approval_required';
  const ending =
    !entry.finishReason || entry.finishReason === 'stop'
      ? null
      : paused
        ? 'Paused for approval'
        : `Finished: ${entry.finishReason}`;
  return (
    <li
      class={`turn turn-${entry.role}${entry.resumed ? ' turn-resumed' : ''}`}
      aria-busy={entry.streaming ? 'true' : undefined}
    >
      <span class="who">{speaker}</span>
      {entry.resumed && <span class="hint"> · continued after the decision</span>}
      {entry.tools.map((tool) => (
        <ToolCallLine key={tool.toolCallId} tool={tool} />
      ))}
      {entry.approvals.map((approval) => (
        <ApprovalRequestItem
          key={approval.approvalId}
          agentId={agentId}
          approval={approval}
          onDecided={(decided) => onDecided(entry, decided)}
        />
      ))}
      {(entry.text || entry.streaming || !paused) && <p class="text">{entry.text || (entry.streaming ? '…' : '')}</p>}
      {entry.problem && <p class="problem">{entry.problem}</p>}
      {entry.citations.length > 0 && <Citations citations={entry.citations} labelledBy={`sources-${entry.key}`} />}
      {entry.role === 'agent' && (ending || entry.runId) && (
        <p class="hint turn-footer">
          {ending}
          {ending && entry.runId && ' · '}
          {entry.runId && (
            <a class="run-link" href={runHref(agentId, entry.runId)}>
              Run <code>{entry.runId}</code>
            </a>
          )}
        </p>
      )}
    </li>
  );
}

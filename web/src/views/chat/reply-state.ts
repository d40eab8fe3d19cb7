// The client's types themselves, not through api.ts: this module is also unit-tested under Node (no DOM).
import type { MessageEvent } from '../../../../src/client/message-events.js';
import type { MessageReply, ToolCall } from '../../../../src/client/types.js';

export type Citation = MessageReply['citations'][number];

/** A tool call as the chat shows it: asked for, then done (its output or error, and a person's decision if it waited). */
export interface ToolLine {
  toolCallId: string;
  name: string;
  input: unknown;
  output?: unknown;
  error?: string;
  durationMs?: number;
  approval?: ToolCall['approval'];
}

/** A call that waits for a person, as the paused reply names it, and what was decided here about it. */
export interface ApprovalRequest {
  approvalId: string;
  toolCallId: string;
  name: string;
  input: unknown;
  expiresAt: string;
  decision?: { status: 'approved' | 'denied' | 'expired'; reason: string | null; resumedRunId: string | null };
}

export interface Entry {
  key: number;
  role: 'user' | 'agent';
  text: string;
  tools: ToolLine[];
  /** The run this reply is, once its first event has named it. */
  runId?: string;
  /** Set on the rest of a reply that went on after its approvals were decided (a run with trigger `approval`). */
  resumed?: boolean;
  approvals: ApprovalRequest[];
  citations: Citation[];
  /** Set once the reply has ended. */
  finishReason?: string;
  problem?: string;
  streaming?: boolean;
}

/** The same events come from a streamed reply and from a run's event stream (docs/runs.md), so one reducer reads both. */
export type ReplyEvent = MessageEvent;

const withTool = (tools: ToolLine[], done: ToolLine): ToolLine[] =>
  tools.some((tool) => tool.toolCallId === done.toolCallId)
    ? tools.map((tool) => (tool.toolCallId === done.toolCallId ? { ...tool, ...done } : tool))
    : [...tools, done];

const withApprovals = (current: ApprovalRequest[], asked: ApprovalRequest[]): ApprovalRequest[] => [
  ...current,
  ...asked.filter((request) => !current.some((known) => known.approvalId === request.approvalId)),
];

const requestOf = (pending: NonNullable<MessageReply['approvals']>[number]): ApprovalRequest => ({
  approvalId: pending.approvalId,
  toolCallId: pending.toolCallId,
  name: pending.name,
  input: pending.input,
  expiresAt: pending.expiresAt,
});

/** The reply after one more of its events. Events of other kinds (a newer server's) leave it as it was. */
export function applyReplyEvent(entry: Entry, event: ReplyEvent): Entry {
  switch (event.type) {
    case 'message.started':
      return { ...entry, runId: event.data.runId };
    case 'message.delta':
      return { ...entry, text: entry.text + event.data.text };
    case 'run.resumed':
      // Another instance took the run over: its text so far replaces what the deltas said.
      return { ...entry, text: event.data.text };
    case 'tool.called': {
      const { toolCallId, name, input } = event.data;
      return { ...entry, tools: withTool(entry.tools, { toolCallId, name, input }) };
    }
    case 'tool.completed': {
      const { id: _id, ...done } = event.data;
      return { ...entry, tools: withTool(entry.tools, done) };
    }
    case 'tool.approval_requested':
      return { ...entry, approvals: withApprovals(entry.approvals, [requestOf(event.data)]) };
    case 'message.completed': {
      const reply = event.data;
      return {
        ...entry,
        runId: reply.runId,
        text: reply.text,
        // The reply's own list is the whole truth: the calls that ran (with any decision), not a waiting one.
        tools: reply.toolCalls,
        approvals: withApprovals(entry.approvals, (reply.approvals ?? []).map(requestOf)),
        citations: reply.citations,
        finishReason: reply.finishReason,
        streaming: false,
      };
    }
    case 'message.failed':
      return { ...entry, problem: event.data.error.detail, finishReason: 'error', streaming: false };
    default:
      return entry;
  }
}

import { AgentdError } from './agentd-error.js';
import type { RawServerSentEvent } from './server-sent-events.js';
import type { MessageReply, PendingApproval, Problem, ToolCall } from './types.js';

/**
 * The events of a streamed reply (POST …/messages with `stream: true`), in the
 * order the server sends them: `message.started`, then `message.delta` with
 * `tool.called` / `tool.completed` between them (and `tool.approval_requested`
 * for a call that waits for a person), then `message.completed` or
 * `message.failed`.
 */
export type MessageEvent = (
  | {
      type: 'message.started';
      data: Pick<MessageReply, 'id' | 'runId' | 'agentId' | 'userId' | 'roomId' | 'model' | 'createdAt'>;
    }
  | { type: 'message.delta'; data: { id: string; text: string } }
  | { type: 'tool.called'; data: { id: string } & Pick<ToolCall, 'toolCallId' | 'name' | 'input'> }
  | { type: 'tool.completed'; data: { id: string } & ToolCall }
  | { type: 'tool.approval_requested'; data: { id: string } & PendingApproval }
  | { type: 'message.completed'; data: MessageReply }
  | { type: 'message.failed'; data: { id: string; error: Problem } }
  /**
   * The run was taken over by another instance after its own stopped: `text` is the reply so far (replace what the
   * deltas said with it); the continuation's events follow.
   */
  | {
      type: 'run.resumed';
      data: { runId: string; id: string | null; text: string; completedSteps: number; takeovers: number };
    }
) & {
  /** The event's number in its run (1, 2, 3…): resume after it with `runs.events(…, { after })`. */
  seq?: number;
};

export type MessageEventType = MessageEvent['type'];

const knownTypes: ReadonlySet<string> = new Set<MessageEventType>([
  'message.started',
  'message.delta',
  'tool.called',
  'tool.completed',
  'tool.approval_requested',
  'message.completed',
  'message.failed',
  'run.resumed',
]);

/**
 * The typed event of a raw one, or null for an event name this client does not
 * know: a newer server may add events, and an older client should read past them.
 * The data is trusted to match its name (it comes from the server's own schemas).
 */
export function toMessageEvent(raw: RawServerSentEvent, status: number): MessageEvent | null {
  if (!knownTypes.has(raw.event)) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw.data);
  } catch {
    throw new AgentdError(status, null, `the ${raw.event} event carried data that is not JSON`);
  }
  return { type: raw.event, data, ...(raw.id !== undefined ? { seq: Number(raw.id) } : {}) } as MessageEvent;
}

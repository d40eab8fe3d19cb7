import { Role, TaskState, type Artifact, type Message, type Part, type Task, type TaskStatus } from '@a2a-js/sdk';
import type { MessageReplyView } from '../../schemas/messages.js';
import type { RunStatus, RunView } from '../../schemas/runs.js';

/**
 * agentd's runs as A2A tasks: the task id is the run id and the context id
 * the run's room, so any instance reads a task from the run it is. The reply
 * is the task's one artifact (`artifactId` the reply's message id).
 */

const stateOfRun: Record<RunStatus, TaskState> = {
  queued: TaskState.TASK_STATE_SUBMITTED,
  running: TaskState.TASK_STATE_WORKING,
  // Paused for a person's approval of a tool call (docs/approvals.md): decided through agentd's approvals API.
  waiting: TaskState.TASK_STATE_INPUT_REQUIRED,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  cancelled: TaskState.TASK_STATE_CANCELED,
  skipped: TaskState.TASK_STATE_REJECTED,
};

export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

export function messageOf(fields: {
  messageId: string;
  contextId: string;
  taskId: string;
  role: 'user' | 'agent';
  text: string;
}): Message {
  return {
    messageId: fields.messageId,
    contextId: fields.contextId,
    taskId: fields.taskId,
    role: fields.role === 'user' ? Role.ROLE_USER : Role.ROLE_AGENT,
    parts: [textPart(fields.text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function replyArtifact(replyId: string, text: string): Artifact {
  return {
    artifactId: replyId,
    name: 'reply',
    description: '',
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
  };
}

export function statusOf(state: TaskState, timestamp: string, message?: Message): TaskStatus {
  return { state, message, timestamp };
}

/** A task as its run says it is now (queued, running or ended). */
export function taskOfRun(run: RunView, historyLength?: number): Task {
  const contextId = run.roomId ?? '';
  const reply: MessageReplyView | null = run.reply;
  const state =
    run.status === 'completed' && reply?.finishReason === 'aborted'
      ? TaskState.TASK_STATE_CANCELED
      : stateOfRun[run.status];
  let statusMessage: Message | undefined;
  if (reply !== null) {
    statusMessage = messageOf({ messageId: reply.id, contextId, taskId: run.id, role: 'agent', text: reply.text });
  } else if (run.error !== null) {
    const detail = (run.error as { detail?: string }).detail ?? 'The reply failed.';
    statusMessage = messageOf({ messageId: `${run.id}-error`, contextId, taskId: run.id, role: 'agent', text: detail });
  }
  const history = [
    messageOf({ messageId: `${run.id}-input`, contextId, taskId: run.id, role: 'user', text: run.input }),
  ];
  return {
    id: run.id,
    contextId,
    status: statusOf(state, run.finishedAt ?? run.startedAt ?? run.createdAt, statusMessage),
    artifacts: reply === null ? [] : [replyArtifact(reply.id, reply.text)],
    history: historyLength === 0 ? [] : history,
    metadata: { agentId: run.agentId, trigger: run.trigger },
  };
}

/** The task of a reply that has ended, built from the reply itself (no read of the run). */
export function taskOfReply(reply: MessageReplyView, contextId: string, input: Message): Task {
  const state = reply.finishReason === 'aborted' ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_COMPLETED;
  const answer = messageOf({ messageId: reply.id, contextId, taskId: reply.runId, role: 'agent', text: reply.text });
  return {
    id: reply.runId,
    contextId,
    status: statusOf(state, new Date().toISOString(), answer),
    artifacts: [replyArtifact(reply.id, reply.text)],
    history: [{ ...input, taskId: reply.runId, contextId }],
    metadata: { agentId: reply.agentId },
  };
}

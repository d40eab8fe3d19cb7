import type { StoredToolCall } from '../../conversation/history-window.js';
import type { AssembledPrompt, PromptMessage } from '../../conversation/prompt.js';
import type { ApprovalStatus } from '../../schemas/approvals.js';
import type { MessageOrigin } from '../messages/exchange-store.js';

/** A decision as the resumed reply's tool call records it (and the model is told). */
export interface ToolDecision {
  approvalId: string;
  status: Exclude<ApprovalStatus, 'pending'>;
  reason: string | null;
}

/** One tool call of the step that paused, in the model's order. */
export interface PausedCall {
  toolCallId: string;
  toolName: string;
  /** The input text the model wrote. */
  input: string;
  /** Its result, when it needed no approval and ran before the pause. */
  result?: StoredToolCall;
  /** The approval it waits for. */
  approvalId?: string;
}

/**
 * What a paused reply had reached, stored with its run (`paused_runs.state`),
 * so that any instance can go on with it after the decisions: the prompt as
 * the model was given it, the tool rounds before the one that paused, and the
 * calls of that round. Self-contained: the resumed reply does not rebuild the
 * prompt (history has moved on meanwhile; the model must see what it saw).
 */
export interface PausedState {
  version: 1;
  /** The message the paused reply answered (the resumed run answers it too). */
  text: string;
  userId: string | null;
  roomId: string | null;
  conversation: string | null;
  prompt: AssembledPrompt;
  /** Tool rounds before the one that paused, as the model was shown them. */
  steps: PromptMessage[];
  /** What the model said in the round that paused, before its calls. */
  stepText: string;
  calls: PausedCall[];
  /** The number of the round that paused (rounds are bounded by the agent's maxSteps). */
  step: number;
  /** The platform the message came from, when it did: the resumed answer is posted back there. */
  origin: MessageOrigin | null;
}

/** What the model reads as the result of a call a person denied, or that waited past its expiry. */
export function deniedResult(decision: ToolDecision): string {
  if (decision.status === 'expired') {
    return 'This call was not run: it needed a person’s approval and none came before the request expired.';
  }
  return decision.reason
    ? `This call was not run: a person denied it, saying: ${decision.reason}`
    : 'This call was not run: a person denied it.';
}

import type { ToolCall } from '../../api.js';

/**
 * A run's steps (GET …/runs/{runId}/steps) and one model step's prompt
 * (GET …/steps/{index}/prompt), as the API sends them.
 */

export interface PromptSection {
  name: string;
  label: string;
  tokens: number;
  items: number;
}

export interface StepToolCall {
  toolCallId: string;
  name: string;
  input: unknown;
}

export interface ModelStepDetail {
  step: number;
  provider: string;
  name: string;
  finishReason: string;
  text: string;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number; cachedInputTokens?: number };
  firstTokenMs: number | null;
  retries: number;
  toolCalls: StepToolCall[];
  sections: PromptSection[];
  promptTokens: number;
}

/** A tool step is the call as a reply lists it. */
export type ToolStepDetail = ToolCall;

export interface ApprovalStepDetail {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  status: string;
  decidedAt: string | null;
  reason: string | null;
  resumedRunId: string | null;
}

export interface ResumeStepDetail {
  reason: 'approval';
  fromRunId: string | null;
  calls: number;
}

export interface RunStep {
  index: number;
  kind: 'model' | 'tool' | 'approval' | 'resume';
  at: string | null;
  durationMs: number | null;
  model?: ModelStepDetail;
  tool?: ToolStepDetail;
  approval?: ApprovalStepDetail;
  resume?: ResumeStepDetail;
}

export interface RunSteps {
  runId: string;
  agentVersion: number | null;
  contextTokens: number | null;
  data: RunStep[];
}

export interface PromptMessage {
  role: 'user' | 'assistant' | 'tool';
  text: string;
  images?: number;
  toolCalls?: StepToolCall[];
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
}

export interface StepPrompt {
  runId: string;
  index: number;
  model: { provider: string; name: string };
  contextTokens: number | null;
  sections: PromptSection[];
  system: string;
  messages: PromptMessage[];
  tools: Array<{ name: string; description: string; inputSchema: unknown }>;
}

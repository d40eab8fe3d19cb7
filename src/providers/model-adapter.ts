import type { AssembledPrompt } from '../conversation/prompt.js';

/**
 * The one interface agentd's core speaks to models through, whatever the
 * provider (after the AI SDK's own `doStream`). An adapter turns a call into a
 * stream of parts and throws a ProviderError when the call fails; retries,
 * time-outs and the circuit breaker live above it, in the model gateway.
 */

export type FinishReason =
  | 'stop'
  | 'length'
  | 'content-filter'
  | 'tool-calls'
  | 'error'
  | 'other'
  | 'aborted'
  /** Not a model's: the reply paused for a person's decision on a tool call (docs/approvals.md). */
  | 'approval_required';

export interface TokenUsage {
  /** Every input token of the call, those read from the provider's prompt cache included. */
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /**
   * Of `inputTokens`, those the provider read from its prompt cache (billed
   * lower); absent when the provider reported none.
   */
  cachedInputTokens?: number;
}

/** Two usages summed (a reply's steps); `cachedInputTokens` only when some step read from the cache. */
export function addUsage(total: TokenUsage, step: TokenUsage): TokenUsage {
  const cachedInputTokens = (total.cachedInputTokens ?? 0) + (step.cachedInputTokens ?? 0);
  return {
    inputTokens: total.inputTokens + step.inputTokens,
    outputTokens: total.outputTokens + step.outputTokens,
    totalTokens: total.totalTokens + step.totalTokens,
    ...(cachedInputTokens > 0 ? { cachedInputTokens } : {}),
  };
}

/** A tool the model may call in this step (contributed by the agent's plugins). */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the input object. */
  inputSchema: Record<string, unknown>;
}

/** The model asks for a tool to run; `input` is the JSON text the model wrote (parsed, and checked, above). */
export interface ToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: string;
}

export type ModelStreamPart =
  | { type: 'text-delta'; text: string }
  | ToolCallPart
  | { type: 'finish'; finishReason: FinishReason; usage: TokenUsage };

export interface ModelSettings {
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
}

export interface ModelCall {
  /** The provider's model name, e.g. gpt-4o-mini. */
  modelName: string;
  settings: ModelSettings;
  /** The agent's own provider key, when the operator allows per-agent keys. */
  apiKey?: string;
  /** What to send: the rendered system prompt and turns, and the parts they were made from. */
  prompt: AssembledPrompt;
  /**
   * Names the conversation for the provider's prompt cache (OpenAI's
   * `prompt_cache_key`): the same for every call of one agent's conversation,
   * and made of no id a user gave (src/providers/prompt-cache.ts).
   */
  cacheKey?: string;
  /** Tools the model may call; absent or empty, it answers in text only. */
  tools?: ToolSpec[];
  /** Whether someone watches the answer arrive (a streamed reply); a model may pace itself only then. */
  watched: boolean;
  abortSignal: AbortSignal;
}

export interface ModelAdapter {
  stream(call: ModelCall): AsyncIterable<ModelStreamPart>;
}

import type { AssembledPrompt } from '../conversation/prompt.js';

/**
 * The one interface agentd's core speaks to models through, whatever the
 * provider (after the AI SDK's own `doStream`). An adapter turns a call into a
 * stream of parts and throws a ProviderError when the call fails; retries,
 * time-outs and the circuit breaker live above it, in the model gateway.
 */

export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'aborted';

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export type ModelStreamPart =
  { type: 'text-delta'; text: string } | { type: 'finish'; finishReason: FinishReason; usage: TokenUsage };

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
  /** Whether someone watches the answer arrive (a streamed reply); a model may pace itself only then. */
  watched: boolean;
  abortSignal: AbortSignal;
}

export interface ModelAdapter {
  stream(call: ModelCall): AsyncIterable<ModelStreamPart>;
}

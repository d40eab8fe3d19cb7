import type { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { FinishReason, ModelAdapter, ModelCall, ModelStreamPart } from './model-adapter.js';
import { ProviderError, toProviderError } from './provider-error.js';

/**
 * A model adapter over the AI SDK's provider interface (LanguageModelV3):
 * `doStream` is called directly rather than through `streamText`, because
 * agentd needs none of streamText's tool loop and stream tees, and skipping
 * them more than halves the CPU time of a call (see bench/README.md). The SDK
 * does not retry here (the gateway retries, and only before the first byte);
 * the call's abort signal goes down to fetch; every failure becomes a
 * ProviderError.
 */

/** The provider model interface the SDK's providers implement (named by inference: no extra dependency). */
export type LanguageModelV3 = ReturnType<ReturnType<typeof createOpenAICompatible>['chatModel']>;
type CallOptions = Parameters<LanguageModelV3['doStream']>[0];

/** Makes the SDK model for a model name, with the agent's own key when it has one. */
export type LanguageModelFactory = (modelName: string, apiKey: string | undefined) => LanguageModelV3;

const knownFinishReasons = new Set<string>(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']);

function promptOf(call: ModelCall): CallOptions['prompt'] {
  return [
    { role: 'system', content: call.prompt.system },
    ...call.prompt.messages.map((message) => ({
      role: message.role,
      content: [{ type: 'text' as const, text: message.content }],
    })),
  ];
}

export class AiSdkModel implements ModelAdapter {
  constructor(
    private readonly provider: string,
    private readonly createModel: LanguageModelFactory,
  ) {}

  async *stream(call: ModelCall): AsyncIterable<ModelStreamPart> {
    const fail = (error: unknown) =>
      // Whoever aborted (the client, or the gateway's time-out) knows why; here it is only an abort.
      call.abortSignal.aborted
        ? new ProviderError('aborted', 'The model call was aborted.', { cause: error })
        : toProviderError(error, this.provider, call.modelName);
    let stream;
    try {
      ({ stream } = await this.createModel(call.modelName, call.apiKey).doStream({
        prompt: promptOf(call),
        ...call.settings,
        abortSignal: call.abortSignal,
      }));
    } catch (error) {
      throw fail(error);
    }
    const reader = stream.getReader();
    let finished = false;
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        if (part.type === 'text-delta') {
          if (part.delta !== '') yield { type: 'text-delta', text: part.delta };
        } else if (part.type === 'finish') {
          const inputTokens = part.usage.inputTokens.total ?? 0;
          const outputTokens = part.usage.outputTokens.total ?? 0;
          const reason = part.finishReason.unified;
          finished = true;
          yield {
            type: 'finish',
            finishReason: knownFinishReasons.has(reason) ? (reason as FinishReason) : 'other',
            usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
          };
          return;
        } else if (part.type === 'error') {
          throw part.error;
        }
      }
    } catch (error) {
      throw fail(error);
    } finally {
      if (!finished) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
    throw new ProviderError('unavailable', `The provider ${this.provider} ended its answer without finishing it.`, {
      isRetryable: true,
    });
  }
}

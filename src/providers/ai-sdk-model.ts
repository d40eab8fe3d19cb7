import { streamText, type LanguageModel } from 'ai';
import type { FinishReason, ModelAdapter, ModelCall, ModelStreamPart } from './model-adapter.js';
import { ProviderError, toProviderError } from './provider-error.js';

/**
 * A model adapter over the Vercel AI SDK: `streamText` with its own retries
 * off (the gateway retries, and only before the first byte), the call's abort
 * signal passed down to fetch, and every SDK failure turned into a ProviderError.
 */

/** Makes the SDK model for a model name, with the agent's own key when it has one. */
export type LanguageModelFactory = (modelName: string, apiKey: string | undefined) => LanguageModel;

const knownFinishReasons = new Set<FinishReason>(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']);

export class AiSdkModel implements ModelAdapter {
  constructor(
    private readonly provider: string,
    private readonly createModel: LanguageModelFactory,
  ) {}

  async *stream(call: ModelCall): AsyncIterable<ModelStreamPart> {
    const fail = (error: unknown) => toProviderError(error, this.provider, call.modelName);
    let result;
    try {
      result = streamText({
        model: this.createModel(call.modelName, call.apiKey),
        system: call.prompt.system,
        messages: call.prompt.messages,
        ...call.settings,
        maxRetries: 0,
        abortSignal: call.abortSignal,
        // Failures arrive as stream parts and are handled below; the default handler would print them.
        onError: () => undefined,
      });
    } catch (error) {
      throw fail(error);
    }
    try {
      for await (const part of result.fullStream) {
        switch (part.type) {
          case 'text-delta':
            if (part.text !== '') yield { type: 'text-delta', text: part.text };
            break;
          case 'finish': {
            const usage = part.totalUsage;
            const inputTokens = usage.inputTokens ?? 0;
            const outputTokens = usage.outputTokens ?? 0;
            yield {
              type: 'finish',
              finishReason: knownFinishReasons.has(part.finishReason) ? part.finishReason : 'other',
              usage: { inputTokens, outputTokens, totalTokens: usage.totalTokens ?? inputTokens + outputTokens },
            };
            return;
          }
          case 'error':
            throw fail(part.error);
          case 'abort':
            throw new ProviderError('aborted', 'The model call was aborted.');
          default:
            break;
        }
      }
    } catch (error) {
      // Whoever aborted (the client, or the gateway's time-out) knows why; here it is only an abort.
      throw call.abortSignal.aborted ? new ProviderError('aborted', 'The model call was aborted.', { cause: error }) : fail(error);
    }
    throw new ProviderError('unavailable', `The provider ${this.provider} ended its answer without finishing it.`, { isRetryable: true });
  }
}

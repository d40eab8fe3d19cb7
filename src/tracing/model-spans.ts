import type { ModelAdapter, ModelCall, ModelStreamPart } from '../providers/model-adapter.js';
import type { Tracing } from './tracing.js';

/**
 * A span per model call, following the OpenTelemetry GenAI semantic
 * conventions (`chat {model}`, gen_ai.system, gen_ai.request.model, and the
 * token usage when the answer finishes, cached input tokens included). Prompts and answers are not
 * recorded: they are the users' data, and spans leave the service.
 */
export function tracedModelAdapter(adapter: ModelAdapter, provider: string, tracing: Tracing): ModelAdapter {
  return {
    ...adapter,
    stream(call: ModelCall): AsyncIterable<ModelStreamPart> {
      return {
        async *[Symbol.asyncIterator]() {
          const span = tracing.startSpan(`chat ${call.modelName}`, 'client', {
            'gen_ai.operation.name': 'chat',
            'gen_ai.system': provider,
            'gen_ai.request.model': call.modelName,
            ...(call.settings.temperature !== undefined
              ? { 'gen_ai.request.temperature': call.settings.temperature }
              : {}),
            ...(call.settings.maxOutputTokens !== undefined
              ? { 'gen_ai.request.max_tokens': call.settings.maxOutputTokens }
              : {}),
          });
          let ended = false;
          try {
            for await (const part of adapter.stream(call)) {
              if (part.type === 'finish') {
                span.setAttributes({
                  'gen_ai.usage.input_tokens': part.usage.inputTokens,
                  'gen_ai.usage.output_tokens': part.usage.outputTokens,
                  // Of the input tokens (which include them, as the convention asks), those read from the prompt cache.
                  'gen_ai.usage.cache_read.input_tokens': part.usage.cachedInputTokens ?? 0,
                  'gen_ai.response.finish_reasons': [part.finishReason],
                });
                // Ended here: the gateway stops reading at the finish part, so this generator is never resumed.
                span.end();
                ended = true;
              }
              yield part;
            }
          } catch (error) {
            span.fail(error);
            throw error;
          } finally {
            if (!ended) span.end();
          }
        },
      };
    },
  };
}

import type { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { PromptMessage } from '../conversation/prompt.js';
import type { FinishReason, ModelAdapter, ModelCall, ModelStreamPart, TokenUsage } from './model-adapter.js';
import type { PromptCaching } from './prompt-cache.js';
import { ProviderError, toProviderError } from './provider-error.js';

/**
 * A model adapter over the AI SDK's provider interface (LanguageModelV3):
 * `doStream` is called directly rather than through `streamText`, because
 * agentd runs its own tool loop (src/conversation/tool-loop.ts) and needs
 * none of streamText's stream tees, and skipping
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

type SdkMessage = CallOptions['prompt'][number];
type SdkToolOutput = Extract<SdkMessage, { role: 'tool' }>['content'][number] extends infer Part
  ? Part extends { type: 'tool-result'; output: infer Output }
    ? Output
    : never
  : never;

/** A tool's output as the SDK carries it: JSON stays JSON, text stays text, errors say so. */
function toolOutputOf(output: unknown, isError: boolean): SdkToolOutput {
  if (typeof output === 'string') return { type: isError ? 'error-text' : 'text', value: output };
  return { type: isError ? 'error-json' : 'json', value: (output ?? null) as never };
}

function messageOf(message: PromptMessage): SdkMessage {
  if (message.role === 'user') {
    const content: Extract<SdkMessage, { role: 'user' }>['content'] = [{ type: 'text', text: message.content }];
    // Image parts as the SDK's providers carry them: OpenAI's `image_url` (a data URL), Anthropic's base64 `image`.
    for (const image of message.images ?? [])
      content.push({ type: 'file', mediaType: image.mediaType, data: image.bytes });
    return { role: 'user', content };
  }
  if (message.role === 'assistant') {
    const content: Extract<SdkMessage, { role: 'assistant' }>['content'] = [];
    if (message.content !== '') content.push({ type: 'text', text: message.content });
    for (const call of message.toolCalls ?? []) {
      content.push({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input });
    }
    return { role: 'assistant', content };
  }
  return {
    role: 'tool',
    content: message.results.map((result) => ({
      type: 'tool-result' as const,
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      // A call a person denied goes as the SDK's own `execution-denied` result (its tool-approval support), which
      // each provider renders in its own way.
      output: result.denied
        ? { type: 'execution-denied' as const, reason: String(result.output) }
        : toolOutputOf(result.output, result.isError),
    })),
  };
}

/** The call's prompt in the SDK's shape (shared with chat-completions-model.ts). */
export function promptOf(call: ModelCall): CallOptions['prompt'] {
  return [{ role: 'system', content: call.prompt.system }, ...call.prompt.messages.map(messageOf)];
}

/** The call's tools in the SDK's shape. */
export function toolsOf(call: ModelCall): Pick<CallOptions, 'tools' | 'toolChoice'> {
  if (call.tools === undefined || call.tools.length === 0) return {};
  return {
    tools: call.tools.map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as never,
    })),
    toolChoice: { type: 'auto' },
  };
}

/**
 * The call's usage as agentd counts it. `inputTokens.total` includes the
 * tokens read from the provider's cache (the SDK adds Anthropic's
 * `cache_read_input_tokens` to its `input_tokens`, and OpenAI counts them in
 * `prompt_tokens`); `cacheRead` says how many they were.
 */
/**
 * A count of tokens as a provider reported it, made safe to add and compare:
 * what is not a non-negative safe integer (a negative number, a string, NaN,
 * an object from a server that sends what it likes) counts as none, so that no
 * answer can lower or poison the usage, costs and spend totals built on it.
 */
function tokenCount(reported: unknown): number {
  return typeof reported === 'number' && Number.isSafeInteger(reported) && reported >= 0 ? reported : 0;
}

export function tokenUsageOf(usage: {
  inputTokens: { total: number | undefined; cacheRead: number | undefined };
  outputTokens: { total: number | undefined };
}): TokenUsage {
  const inputTokens = tokenCount(usage.inputTokens.total);
  const outputTokens = tokenCount(usage.outputTokens.total);
  // Of the input: a provider reporting more cached tokens than input ones is read as all of them cached.
  const cachedInputTokens = Math.min(tokenCount(usage.inputTokens.cacheRead), inputTokens);
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    ...(cachedInputTokens > 0 ? { cachedInputTokens } : {}),
  };
}

export class AiSdkModel implements ModelAdapter {
  constructor(
    private readonly provider: string,
    private readonly createModel: LanguageModelFactory,
    /** How this provider's prompts are made cacheable (src/providers/prompt-cache.ts); none by default. */
    private readonly caching: PromptCaching | null = null,
  ) {}

  async *stream(call: ModelCall): AsyncIterable<ModelStreamPart> {
    const fail = (error: unknown) =>
      // Whoever aborted (the client, or the gateway's time-out) knows why; here it is only an abort.
      call.abortSignal.aborted
        ? new ProviderError('aborted', 'The model call was aborted.', { cause: error })
        : toProviderError(error, this.provider, call.modelName);
    let stream;
    try {
      const options = { prompt: promptOf(call), ...toolsOf(call) };
      ({ stream } = await this.createModel(call.modelName, call.apiKey).doStream({
        ...(this.caching === null ? options : this.caching(call, options)),
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
        } else if (part.type === 'tool-call') {
          yield { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
        } else if (part.type === 'finish') {
          const reason = part.finishReason.unified;
          finished = true;
          yield {
            type: 'finish',
            finishReason: knownFinishReasons.has(reason) ? (reason as FinishReason) : 'other',
            usage: tokenUsageOf(part.usage),
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

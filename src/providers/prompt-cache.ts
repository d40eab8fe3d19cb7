import { createHash } from 'node:crypto';
import type { LanguageModelV3 } from './ai-sdk-model.js';
import type { ModelCall } from './model-adapter.js';

/**
 * What makes a prompt cheaper to send again, per provider. The prompt is
 * assembled so that what changes least comes first and the volatile parts
 * travel in the current user message (src/conversation/prompt.ts): the tools,
 * the system prompt and the history before that message are the stable prefix
 * of one conversation, byte for byte, and providers bill a cached prefix
 * lower.
 */

type CallOptions = Parameters<LanguageModelV3['doStream']>[0];

/** The parts of the SDK's call options a provider's caching may change. */
export type CachedCallOptions = Pick<CallOptions, 'prompt' | 'tools' | 'toolChoice' | 'providerOptions'>;

/** Turns a call's SDK options into ones the provider can cache. */
export type PromptCaching = (call: ModelCall, options: CachedCallOptions) => CachedCallOptions;

/**
 * The conversation's `prompt_cache_key`: a digest of the agent and the
 * conversation (the same for every call of one conversation, different for
 * any other), so that OpenAI routes its calls to the machines that hold its
 * prefix, and no id a user gave (a userId, a roomId) reaches the provider.
 * 43 characters: OpenAI's keys are bounded (64). A message outside any
 * conversation shares the agent's key: its prefix is the agent's own.
 */
export function promptCacheKeyOf(agentId: string, conversation: string | null): string {
  return createHash('sha256')
    .update(`${agentId}\u0000${conversation ?? ''}`)
    .digest('base64url');
}

const ephemeral = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/**
 * Anthropic caches a prefix up to a marked block (a cache breakpoint, at most
 * four a request; its order is tools, system, messages). Marked here: the last
 * tool (all the tool definitions), the system prompt, the last message before
 * the current user message (the stable history), and, in a step after tool
 * calls, the step's last message (the reply's tool rounds so far, the prefix
 * of the next step). The current user message is never marked: it holds the
 * volatile parts, and writing it to the cache would cost more for nothing.
 */
export const anthropicCacheBreakpoints: PromptCaching = (_call, options) => {
  const prompt = options.prompt.map((message) => ({ ...message }));
  const system = prompt[0];
  if (system?.role === 'system' && system.content !== '') system.providerOptions = ephemeral;
  let current = -1;
  for (let index = prompt.length - 1; index > 0; index -= 1) {
    if (prompt[index]?.role === 'user') {
      current = index;
      break;
    }
  }
  const historyEnd = prompt[current - 1];
  if (current > 1 && historyEnd !== undefined) historyEnd.providerOptions = ephemeral;
  const last = prompt.at(-1);
  if (current > 0 && prompt.length - 1 > current && last !== undefined) last.providerOptions = ephemeral;
  const tools = options.tools?.map((tool, index, all) =>
    index === all.length - 1 ? { ...tool, providerOptions: ephemeral } : tool,
  );
  return { ...options, prompt, ...(tools !== undefined ? { tools } : {}) };
};

/** OpenAI caches prefixes by itself; the key keeps one conversation's calls where its prefix is cached. */
export const openAiPromptCacheKey: PromptCaching = (call, options) =>
  call.cacheKey === undefined
    ? options
    : { ...options, providerOptions: { ...options.providerOptions, openai: { promptCacheKey: call.cacheKey } } };

import type { ProviderEnvironment } from '../config.js';
import { AiSdkModel, type LanguageModelFactory, type LanguageModelV3 } from './ai-sdk-model.js';
import { BuiltinModel } from './builtin-model.js';
import type { ProviderName } from './catalog.js';
import { httpFetch } from './http-fetch.js';
import type { ModelAdapter } from './model-adapter.js';
import { anthropicCacheBreakpoints, openAiPromptCacheKey, type PromptCaching } from './prompt-cache.js';

/**
 * One adapter per enabled provider, built once at start-up from the
 * environment. Provider clients are reused by every call; a per-agent key
 * gets a client of its own for that call. A provider's SDK is loaded only
 * when that provider is enabled (the builtin model alone loads none).
 */

/** Model objects kept per model name and key: the SDK builds its response schemas per object, which is costly per call. */
const cachedModelsPerProvider = 64;

function cached(create: LanguageModelFactory): LanguageModelFactory {
  const models = new Map<string, LanguageModelV3>();
  return (name, apiKey) => {
    const key = `${name}\u0000${apiKey ?? ''}`;
    let model = models.get(key);
    if (model === undefined) {
      model = create(name, apiKey);
      // Oldest first out: agents can name any model, so the cache must stay bounded.
      if (models.size >= cachedModelsPerProvider) models.delete(models.keys().next().value as string);
      models.set(key, model);
    }
    return model;
  };
}

/** Anthropic's and Ollama's own tools take base URLs without the API version; the SDK wants it. */
function withVersionPath(baseUrl: string): string {
  return /\/v1$/.test(baseUrl) ? baseUrl : `${baseUrl}/v1`;
}

/**
 * An adapter over one SDK provider: the provider made from the environment's
 * settings serves every agent, and an agent with a key of its own gets a
 * provider made with that key instead.
 */
function sdkAdapter<Settings extends object, Provider>(
  name: ProviderName,
  settings: Settings,
  create: (settings: Settings & { apiKey?: string }) => Provider,
  model: (provider: Provider, modelName: string) => LanguageModelV3,
  caching: PromptCaching,
): ModelAdapter {
  const shared = create(settings);
  return new AiSdkModel(
    name,
    cached((modelName, apiKey) => model(apiKey ? create({ ...settings, apiKey }) : shared, modelName)),
    caching,
  );
}

export async function createModelAdapters(
  providers: ProviderEnvironment,
  options: { builtinWordDelayMs: number },
): Promise<Map<ProviderName, ModelAdapter>> {
  const adapters = new Map<ProviderName, ModelAdapter>();
  adapters.set('builtin', new BuiltinModel({ wordDelayMs: options.builtinWordDelayMs }));

  if (providers.openai) {
    const { createOpenAI } = await import('@ai-sdk/openai');
    const settings = {
      fetch: httpFetch,
      apiKey: providers.openai.apiKey,
      ...(providers.openai.baseUrl ? { baseURL: providers.openai.baseUrl } : {}),
    };
    adapters.set(
      'openai',
      sdkAdapter('openai', settings, createOpenAI, (provider, name) => provider.chat(name), openAiPromptCacheKey),
    );
  }
  if (providers.anthropic) {
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    const settings = {
      fetch: httpFetch,
      apiKey: providers.anthropic.apiKey,
      ...(providers.anthropic.baseUrl ? { baseURL: withVersionPath(providers.anthropic.baseUrl) } : {}),
    };
    adapters.set(
      'anthropic',
      sdkAdapter('anthropic', settings, createAnthropic, (provider, name) => provider(name), anthropicCacheBreakpoints),
    );
  }
  // The two OpenAI-compatible providers read their streamed answers without web streams (chat-completions-model.ts).
  // They are sent no prompt_cache_key: a field OpenAI added is one a strict server may refuse (400), and the
  // servers behind them (vLLM, llama.cpp, Ollama) cache prefixes without one.
  if (providers.openaiCompatible || providers.ollama) {
    const { ChatCompletionsModel } = await import('./chat-completions-model.js');
    if (providers.openaiCompatible) {
      adapters.set(
        'openai-compatible',
        new ChatCompletionsModel({
          name: 'openai-compatible',
          fetch: httpFetch,
          baseURL: providers.openaiCompatible.baseUrl,
          ...(providers.openaiCompatible.apiKey ? { apiKey: providers.openaiCompatible.apiKey } : {}),
        }),
      );
    }
    if (providers.ollama) {
      // Ollama serves the OpenAI Chat Completions protocol under /v1, usage included in streams; it takes no key.
      adapters.set(
        'ollama',
        new ChatCompletionsModel({
          name: 'ollama',
          fetch: httpFetch,
          baseURL: withVersionPath(providers.ollama.baseUrl),
        }),
      );
    }
  }
  return adapters;
}

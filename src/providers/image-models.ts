import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ImageModel } from 'ai';
import type { ProviderEnvironment } from '../config.js';
import type { FetchFunction, ImageModelProvider } from '../plugins/plugin.js';
import { httpFetch } from './http-fetch.js';

/**
 * Image models for the `images` plugin, through the AI SDK's providers: the
 * operator's provider settings (the same variables as for chat models), an
 * agent's own key over them, or an agent's own OpenAI-compatible server.
 * An agent's `baseUrl` is a user-given address, so its calls go through the
 * SSRF-safe client; the operator's are trusted like every model call.
 */
export type ImageModelFactory = (
  provider: ImageModelProvider,
  modelName: string,
  options: { apiKey?: string; baseUrl?: string },
) => ImageModel;

export function createImageModelFactory(
  providers: ProviderEnvironment,
  outboundFetch: FetchFunction,
): ImageModelFactory {
  return (provider, modelName, options) => {
    if (options.baseUrl !== undefined) {
      return createOpenAICompatible({
        name: 'images',
        baseURL: options.baseUrl,
        fetch: outboundFetch as typeof fetch,
        ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      }).imageModel(modelName);
    }
    if (provider === 'openai') {
      const settings = providers.openai;
      if (settings === null) {
        throw new Error('the openai provider is not enabled on this server; give the plugin a baseUrl');
      }
      return createOpenAI({
        fetch: httpFetch,
        apiKey: options.apiKey ?? settings.apiKey,
        ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
      }).image(modelName);
    }
    const settings = providers.openaiCompatible;
    if (settings === null) {
      throw new Error('the openai-compatible provider is not enabled on this server; give the plugin a baseUrl');
    }
    const apiKey = options.apiKey ?? settings.apiKey ?? undefined;
    return createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: settings.baseUrl,
      fetch: httpFetch,
      ...(apiKey !== undefined ? { apiKey } : {}),
    }).imageModel(modelName);
  };
}

// The model object the SDK-only benches call, made as agentd's adapter makes it
// (src/providers/ai-sdk-model.ts): the AI SDK's openai-compatible provider over
// agentd's node:http `fetch` (from the build), with usage in streamed answers.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { httpFetch } from '../../dist/providers/http-fetch.js';

export function benchModel(baseURL) {
  return createOpenAICompatible({ name: 'openai-compatible', fetch: httpFetch, baseURL, includeUsage: true }).chatModel(
    'bench-model',
  );
}

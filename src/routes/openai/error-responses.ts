import { Type, type TSchema } from '@sinclair/typebox';
import { OpenAiErrorSchema } from '../../schemas/openai.js';

const descriptions: Record<number, string> = {
  400: 'A request OpenAI clients would not send, or a `model` that names more than one agent.',
  401: 'Missing, malformed, unknown or revoked API key.',
  403: 'The key lacks the scope this operation needs.',
  404: 'No agent of this account is that model.',
  429: 'A rate or concurrency limit is exhausted; see Retry-After.',
  503: 'The database, the agent or its model provider cannot answer now; see Retry-After.',
};

/** Error responses of the OpenAI-compatible door: OpenAI's error shape, agentd's statuses. */
export function openAiErrorResponses(...statuses: number[]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const status of [401, 403, 429, 503, ...statuses]) {
    responses[status] = Type.Unsafe({ ...OpenAiErrorSchema, description: descriptions[status] ?? 'Error' });
  }
  return responses;
}

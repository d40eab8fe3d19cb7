import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { ModelList, ModelParams, ModelView } from '../../schemas/openai.js';
import { getModel, listModels, modelListLimit } from '../../services/openai/list-models.js';
import { openAiErrorResponses } from './error-responses.js';

export function registerListModels(app: App): void {
  app.get(
    '/v1/models',
    {
      config: {
        operation: { scope: 'agents:read', rateLimit: 'listAgents', rateLimitPer: 'account' },
        errorFormat: 'openai',
      },
      schema: {
        operationId: 'listModels',
        tags: ['openai'],
        summary: "The account's agents as OpenAI models",
        description:
          `OpenAI's models list: each agent of the account is a model whose id is the agent id, newest first, at most ` +
          `${modelListLimit} (OpenAI's list has no pages; walk \`GET /v1/agents\` for more). Errors in OpenAI's shape. ` +
          'Scope: `agents:read`; counts against the listAgents limit.',
        response: { 200: ModelList, ...openAiErrorResponses() },
      },
    },
    async (request) => listModels({ ctx: contextOf(request) }),
  );

  app.get(
    '/v1/models/:model',
    {
      config: {
        operation: { scope: 'agents:read', rateLimit: 'getAgent', rateLimitPer: 'account' },
        errorFormat: 'openai',
      },
      schema: {
        operationId: 'getModel',
        tags: ['openai'],
        summary: 'One agent as an OpenAI model',
        description:
          'The agent named by its id or as `agent:<name>`, as an OpenAI model. Errors in OpenAI’s shape. ' +
          'Scope: `agents:read`; counts against the getAgent limit.',
        params: ModelParams,
        response: { 200: ModelView, ...openAiErrorResponses(400, 404) },
      },
    },
    async (request) => getModel({ ctx: contextOf(request), model: request.params.model }),
  );
}

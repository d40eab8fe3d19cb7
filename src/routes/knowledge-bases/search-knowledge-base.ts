import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { KnowledgeBaseIdParams, SearchKnowledgeBaseBody, SearchResults } from '../../schemas/knowledge-bases.js';
import { searchKnowledgeBase } from '../../services/knowledge-bases/search.js';

export function registerSearchKnowledgeBase(app: App): void {
  app.post(
    '/v1/knowledge-bases/:knowledgeBaseId/search',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'searchKnowledgeBases', rateLimitPer: 'account' } },
      schema: {
        operationId: 'searchKnowledgeBase',
        tags: ['knowledge-bases'],
        summary: 'Search a knowledge base',
        description:
          "The chunks an agent's prompt would get for `query`, best first: full text and (with an embedding " +
          'model) vector search, fused by reciprocal rank. Scope: `agents:read`.',
        params: KnowledgeBaseIdParams,
        body: SearchKnowledgeBaseBody,
        response: { 200: SearchResults, ...problemResponses(400, 404, 413, 415) },
      },
    },
    async (request) =>
      searchKnowledgeBase({
        ctx: contextOf(request),
        knowledgeBaseId: request.params.knowledgeBaseId,
        input: request.body,
      }),
  );
}

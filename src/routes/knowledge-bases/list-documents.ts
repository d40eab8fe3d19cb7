import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { DocumentList, KnowledgeBaseIdParams, ListDocumentsQuery } from '../../schemas/knowledge-bases.js';
import { listDocuments } from '../../services/knowledge-bases/documents.js';

export function registerListDocuments(app: App): void {
  app.get(
    '/v1/knowledge-bases/:knowledgeBaseId/documents',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readKnowledgeBases', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listDocuments',
        tags: ['knowledge-bases'],
        summary: "List a knowledge base's documents",
        description: 'Newest first, with their ingestion `status`. Scope: `agents:read`.',
        params: KnowledgeBaseIdParams,
        querystring: ListDocumentsQuery,
        response: { 200: DocumentList, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      listDocuments({
        ctx: contextOf(request),
        knowledgeBaseId: request.params.knowledgeBaseId,
        query: request.query,
      }),
  );
}

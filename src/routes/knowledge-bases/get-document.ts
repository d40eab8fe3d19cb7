import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { DocumentIdParams, DocumentSchema } from '../../schemas/knowledge-bases.js';
import { getDocument } from '../../services/knowledge-bases/documents.js';

export function registerGetDocument(app: App): void {
  app.get(
    '/v1/knowledge-bases/:knowledgeBaseId/documents/:documentId',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readKnowledgeBases', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getDocument',
        tags: ['knowledge-bases'],
        summary: 'Get a document and its ingestion status',
        description: 'Scope: `agents:read`.',
        params: DocumentIdParams,
        response: { 200: Type.Ref(DocumentSchema), ...problemResponses(404) },
      },
    },
    async (request) => getDocument({ ctx: contextOf(request), ...request.params }),
  );
}

import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { DeletedDocument, DocumentIdParams } from '../../schemas/knowledge-bases.js';
import { deleteDocument } from '../../services/knowledge-bases/documents.js';

export function registerDeleteDocument(app: App): void {
  app.delete(
    '/v1/knowledge-bases/:knowledgeBaseId/documents/:documentId',
    {
      config: { operation: { scope: 'agents:delete', rateLimit: 'writeKnowledgeBases', rateLimitPer: 'account' } },
      schema: {
        operationId: 'deleteDocument',
        tags: ['knowledge-bases'],
        summary: 'Delete a document with its chunks',
        description: 'Scope: `agents:delete`.',
        params: DocumentIdParams,
        response: { 200: DeletedDocument, ...problemResponses(404) },
      },
    },
    async (request) => deleteDocument({ ctx: contextOf(request), ...request.params }),
  );
}

import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { DocumentIdParams, DocumentSchema } from '../../schemas/knowledge-bases.js';
import { retryDocument } from '../../services/knowledge-bases/documents.js';

export function registerRetryDocument(app: App): void {
  app.post(
    '/v1/knowledge-bases/:knowledgeBaseId/documents/:documentId/retry',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'writeKnowledgeBases', rateLimitPer: 'account' } },
      schema: {
        operationId: 'retryDocument',
        tags: ['knowledge-bases'],
        summary: 'Ingest a failed document again',
        description:
          'Puts a `failed` document back to `processing` (its content was kept). A document that has not ' +
          'failed is returned unchanged. Scope: `agents:write`.',
        params: DocumentIdParams,
        response: { 200: Type.Ref(DocumentSchema), ...problemResponses(404) },
      },
    },
    async (request) => retryDocument({ ctx: contextOf(request), ...request.params }),
  );
}

import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { DeletedKnowledgeBase, KnowledgeBaseIdParams } from '../../schemas/knowledge-bases.js';
import { deleteKnowledgeBase } from '../../services/knowledge-bases/knowledge-bases.js';

export function registerDeleteKnowledgeBase(app: App): void {
  app.delete(
    '/v1/knowledge-bases/:knowledgeBaseId',
    {
      config: { operation: { scope: 'agents:delete', rateLimit: 'writeKnowledgeBases', rateLimitPer: 'account' } },
      schema: {
        operationId: 'deleteKnowledgeBase',
        tags: ['knowledge-bases'],
        summary: 'Delete a knowledge base for good',
        description:
          'Removes the base with its documents and chunks, and detaches it from every agent that used it ' +
          '(`detachedFrom` lists them). Scope: `agents:delete`.',
        params: KnowledgeBaseIdParams,
        response: { 200: DeletedKnowledgeBase, ...problemResponses(404) },
      },
    },
    async (request) =>
      deleteKnowledgeBase({ ctx: contextOf(request), knowledgeBaseId: request.params.knowledgeBaseId }),
  );
}

import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { KnowledgeBaseIdParams, KnowledgeBaseSchema } from '../../schemas/knowledge-bases.js';
import { getKnowledgeBase } from '../../services/knowledge-bases/knowledge-bases.js';

export function registerGetKnowledgeBase(app: App): void {
  app.get(
    '/v1/knowledge-bases/:knowledgeBaseId',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readKnowledgeBases', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getKnowledgeBase',
        tags: ['knowledge-bases'],
        summary: 'Get a knowledge base',
        description: 'Scope: `agents:read`.',
        params: KnowledgeBaseIdParams,
        response: { 200: Type.Ref(KnowledgeBaseSchema), ...problemResponses(404) },
      },
    },
    async (request) => getKnowledgeBase({ ctx: contextOf(request), knowledgeBaseId: request.params.knowledgeBaseId }),
  );
}

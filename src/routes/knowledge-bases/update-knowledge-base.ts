import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { KnowledgeBaseIdParams, KnowledgeBaseSchema, UpdateKnowledgeBaseBody } from '../../schemas/knowledge-bases.js';
import { updateKnowledgeBase } from '../../services/knowledge-bases/knowledge-bases.js';

export function registerUpdateKnowledgeBase(app: App): void {
  app.patch(
    '/v1/knowledge-bases/:knowledgeBaseId',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'writeKnowledgeBases', rateLimitPer: 'account' } },
      schema: {
        operationId: 'updateKnowledgeBase',
        tags: ['knowledge-bases'],
        summary: 'Rename or describe a knowledge base',
        description: 'JSON Merge Patch (RFC 7396); `description: null` removes it. Scope: `agents:write`.',
        params: KnowledgeBaseIdParams,
        body: UpdateKnowledgeBaseBody,
        response: { 200: Type.Ref(KnowledgeBaseSchema), ...problemResponses(400, 404, 413, 415) },
      },
    },
    async (request) =>
      updateKnowledgeBase({
        ctx: contextOf(request),
        knowledgeBaseId: request.params.knowledgeBaseId,
        patch: request.body,
      }),
  );
}

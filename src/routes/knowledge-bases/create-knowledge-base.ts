import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { CreateKnowledgeBaseBody, KnowledgeBaseSchema } from '../../schemas/knowledge-bases.js';
import { createKnowledgeBase } from '../../services/knowledge-bases/knowledge-bases.js';

export function registerCreateKnowledgeBase(app: App): void {
  app.post(
    '/v1/knowledge-bases',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'writeKnowledgeBases', rateLimitPer: 'account' } },
      schema: {
        operationId: 'createKnowledgeBase',
        tags: ['knowledge-bases'],
        summary: 'Create a knowledge base',
        description:
          'A collection of documents agents retrieve from (attach it with the agent field `knowledgeBases`). ' +
          'Scope: `agents:write`.',
        body: CreateKnowledgeBaseBody,
        response: { 201: Type.Ref(KnowledgeBaseSchema), ...problemResponses(400, 413, 415) },
      },
    },
    async (request, reply) => {
      const base = await createKnowledgeBase({ ctx: contextOf(request), input: request.body });
      return reply.status(201).header('location', `/v1/knowledge-bases/${base.id}`).send(base);
    },
  );
}

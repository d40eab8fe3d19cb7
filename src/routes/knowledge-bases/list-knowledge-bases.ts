import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { KnowledgeBaseList, ListKnowledgeBasesQuery } from '../../schemas/knowledge-bases.js';
import { listKnowledgeBases } from '../../services/knowledge-bases/knowledge-bases.js';

export function registerListKnowledgeBases(app: App): void {
  app.get(
    '/v1/knowledge-bases',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readKnowledgeBases', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listKnowledgeBases',
        tags: ['knowledge-bases'],
        summary: 'List knowledge bases',
        description:
          "Pages of the account's knowledge bases, newest first. Follow `nextCursor` or ask for `page` numbers. " +
          'Scope: `agents:read`.',
        querystring: ListKnowledgeBasesQuery,
        response: { 200: KnowledgeBaseList, ...problemResponses(400) },
      },
    },
    async (request) => listKnowledgeBases({ ctx: contextOf(request), query: request.query }),
  );
}

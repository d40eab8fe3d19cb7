import type { SearchKnowledgeBaseInput, SearchResultsView } from '../../schemas/knowledge-bases.js';
import { requireScope, type ServiceContext } from '../context.js';
import { findOwnKnowledgeBase } from './knowledge-bases.js';

const defaultLimit = 5;

/** Retrieval from one base, as an agent's prompt would get it: for users to try queries directly. */
export async function searchKnowledgeBase({
  ctx,
  knowledgeBaseId,
  input,
}: {
  ctx: ServiceContext;
  knowledgeBaseId: string;
  input: SearchKnowledgeBaseInput;
}): Promise<SearchResultsView> {
  requireScope(ctx, 'agents:read');
  const base = await findOwnKnowledgeBase(ctx, knowledgeBaseId);
  const { retrieval } = ctx.deps.knowledge;
  const requested = input.mode ?? 'hybrid';
  const mode = retrieval.hybrid ? requested : 'text';
  const chunks = await retrieval.search([base.id], input.query, { limit: input.limit ?? defaultLimit, mode });
  return {
    mode,
    data: chunks.map(({ knowledgeBaseId: baseId, documentId, chunkId, position, title, heading, content, score }) => ({
      knowledgeBaseId: baseId,
      documentId,
      chunkId,
      position,
      title,
      heading,
      content,
      score,
    })),
  };
}

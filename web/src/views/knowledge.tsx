import { KnowledgeBaseDetail } from './knowledge/base-detail.js';
import { KnowledgeBaseList } from './knowledge/base-list.js';

/** Knowledge bases: the account's list (#/knowledge), or one base with its documents and search (#/knowledge/<id>). */
export function KnowledgeView({ knowledgeBaseId }: { knowledgeBaseId?: string }) {
  return knowledgeBaseId ? <KnowledgeBaseDetail id={knowledgeBaseId} /> : <KnowledgeBaseList />;
}

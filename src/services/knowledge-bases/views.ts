import type { DocumentView, KnowledgeBaseView } from '../../schemas/knowledge-bases.js';
import type { KnowledgeBaseRecord, KnowledgeDocumentRecord } from '../../storage/repositories/knowledge-bases.js';

export function toKnowledgeBaseView(record: KnowledgeBaseRecord): KnowledgeBaseView {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export function toDocumentView(record: KnowledgeDocumentRecord): DocumentView {
  return {
    id: record.id,
    knowledgeBaseId: record.knowledgeBaseId,
    title: record.title,
    contentType: record.contentType,
    source: record.source,
    sizeBytes: record.sizeBytes,
    contentHash: record.contentHash,
    status: record.status,
    statusReason: record.statusReason,
    chunkCount: record.chunkCount,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

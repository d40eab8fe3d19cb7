import { validationError } from '../../errors.js';
import { isId } from '../../ids.js';
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

/**
 * List cursors of knowledge bases and documents: the id of the last item of
 * the page (and the number of the next page), base64url JSON. Opaque to
 * clients; not signed, as it only moves a client within its own account.
 */
export function encodeIdCursor(kind: 'knowledgeBase' | 'document', id: string, page = 0): string {
  return Buffer.from(JSON.stringify([1, id, page]), 'utf8').toString('base64url');
}

export function decodeIdCursor(kind: 'knowledgeBase' | 'document', value: string): { id: string; page: number } {
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    fields = null;
  }
  if (
    Array.isArray(fields) &&
    fields.length === 3 &&
    fields[0] === 1 &&
    typeof fields[1] === 'string' &&
    isId(kind, fields[1]) &&
    Number.isSafeInteger(fields[2]) &&
    fields[2] >= 0
  ) {
    return { id: fields[1], page: fields[2] };
  }
  throw validationError('/query/cursor', 'is not a cursor this server issued');
}

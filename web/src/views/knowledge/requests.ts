import type { components, operations } from '../../../../src/client/openapi.js';
import { ApiError, request, type Problem } from '../../api.js';
import { readKey } from '../../session.js';

/** The knowledge-base calls of the dashboard, typed by the server's OpenAPI document. */
export type KnowledgeBase = components['schemas']['KnowledgeBase'];
export type KnowledgeDocument = components['schemas']['KnowledgeDocument'];
export type KnowledgeBaseList = operations['listKnowledgeBases']['responses'][200]['content']['application/json'];
export type DocumentList = operations['listDocuments']['responses'][200]['content']['application/json'];
export type SearchResults = operations['searchKnowledgeBase']['responses'][200]['content']['application/json'];
export type SearchHit = SearchResults['data'][number];

const basePath = (id: string) => `/v1/knowledge-bases/${encodeURIComponent(id)}`;
const documentPath = (baseId: string, documentId: string) =>
  `${basePath(baseId)}/documents/${encodeURIComponent(documentId)}`;

export const knowledgeApi = {
  list: (signal: AbortSignal) =>
    request<KnowledgeBaseList>('GET', '/v1/knowledge-bases', { query: { limit: 100 }, signal }),
  get: (id: string, signal?: AbortSignal) => request<KnowledgeBase>('GET', basePath(id), { signal }),
  create: (body: { name: string; description?: string }) =>
    request<KnowledgeBase>('POST', '/v1/knowledge-bases', { body }),
  remove: (id: string) => request<{ id: string; deleted: true }>('DELETE', basePath(id)),
  documents: (id: string, signal?: AbortSignal) =>
    request<DocumentList>('GET', `${basePath(id)}/documents`, { query: { limit: 100 }, signal }),
  retry: (baseId: string, documentId: string) =>
    request<KnowledgeDocument>('POST', `${documentPath(baseId, documentId)}/retry`),
  removeDocument: (baseId: string, documentId: string) =>
    request<{ id: string; deleted: true }>('DELETE', documentPath(baseId, documentId)),
  search: (id: string, query: string) =>
    request<SearchResults>('POST', `${basePath(id)}/search`, { body: { query, limit: 5 } }),
};

/**
 * Uploads one file as multipart/form-data. XMLHttpRequest rather than fetch:
 * only it reports upload progress, which a large PDF needs to show.
 */
export function uploadDocument(
  baseId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<KnowledgeDocument> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${basePath(baseId)}/documents`);
    const key = readKey();
    if (key) xhr.setRequestHeader('authorization', `Bearer ${key}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: the status alone tells what happened.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as KnowledgeDocument);
      else reject(new ApiError(xhr.status, body as Partial<Problem> | null));
    });
    xhr.addEventListener('error', () => reject(new Error('network')));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

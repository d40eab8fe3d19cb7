import type { TestAccount, TestApp } from './test-app.js';
import { eventually } from './wait.js';

/** Environment that points a test app's embeddings at a fake server (see fake-embeddings-server.ts). */
export function embeddingsEnvironment(baseUrl: string, dimensions = 384): Record<string, string> {
  return {
    AGENTD_EMBEDDINGS_PROVIDER: 'openai-compatible',
    AGENTD_EMBEDDINGS_MODEL: 'fake-embedding',
    AGENTD_EMBEDDINGS_BASE_URL: baseUrl,
    AGENTD_EMBEDDINGS_DIMENSIONS: String(dimensions),
    AGENTD_KNOWLEDGE_POLL_MS: '50',
  };
}

export async function newKnowledgeBase(t: TestApp, as?: TestAccount, name = 'Docs'): Promise<string> {
  const response = await t.inject({
    method: 'POST',
    url: '/v1/knowledge-bases',
    payload: { name },
    ...(as ? { as } : {}),
  });
  if (response.statusCode !== 201)
    throw new Error(`creating a knowledge base answered ${response.statusCode}: ${response.body}`);
  return response.json().id;
}

/** A multipart/form-data body with one file (and a title field first), as fetch would send it. */
export async function multipartBody(
  file: { name: string; type: string; bytes: Uint8Array },
  title?: string,
): Promise<{ headers: Record<string, string>; payload: Buffer }> {
  const form = new FormData();
  if (title !== undefined) form.append('title', title);
  form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    headers: { 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  };
}

/** The document once ingestion has settled (ready or failed). */
export async function settledDocument(t: TestApp, knowledgeBaseId: string, documentId: string, as?: TestAccount) {
  return eventually(
    async () => {
      const response = await t.inject({
        method: 'GET',
        url: `/v1/knowledge-bases/${knowledgeBaseId}/documents/${documentId}`,
        ...(as ? { as } : {}),
      });
      const document = response.json();
      return document.status === 'processing' ? null : document;
    },
    `document ${documentId} to be ingested`,
    15_000,
  );
}

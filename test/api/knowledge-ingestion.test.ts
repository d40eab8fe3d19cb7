import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../helpers/fake-embeddings-server.js';
import { embeddingsEnvironment, newKnowledgeBase, settledDocument } from '../helpers/knowledge.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Ingestion against an embedding provider that fails, then recovers. */
describe('knowledge ingestion with a failing embedding provider', () => {
  let t: TestApp;
  let embeddings: FakeEmbeddingsServer;

  before(async () => {
    embeddings = await startFakeEmbeddingsServer();
    t = await createTestApp({ env: embeddingsEnvironment(embeddings.baseUrl), captureLogs: true });
  });
  after(async () => {
    await t?.close();
    await embeddings?.close();
  });

  it('marks the document failed with a reason, and the retry endpoint recovers it', async () => {
    const id = await newKnowledgeBase(t);
    embeddings.failWith(400);
    const sections = Array.from(
      { length: 6 },
      (_, index) => `## Section ${index}\n\n${`Paragraph about pier ${index} and its cranes. `.repeat(30)}`,
    );
    const added = await t.inject({
      method: 'POST',
      url: `/v1/knowledge-bases/${id}/documents`,
      payload: { title: 'Piers', content: sections.join('\n\n'), contentType: 'text/markdown' },
    });
    const failed = await settledDocument(t, id, added.json().id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.statusReason, 'embedding failed: the embedding provider answered 400');
    assert.equal(failed.chunkCount, 0);

    embeddings.failWith(null);
    const before = embeddings.requests.length;
    const retried = await t.inject({
      method: 'POST',
      url: `/v1/knowledge-bases/${id}/documents/${added.json().id}/retry`,
    });
    assert.equal(retried.statusCode, 200);
    assert.equal(retried.json().status, 'processing');
    assert.equal(retried.json().statusReason, null);
    const ready = await settledDocument(t, id, added.json().id);
    assert.equal(ready.status, 'ready', ready.statusReason);
    assert.ok(ready.chunkCount >= 6, `${ready.chunkCount} chunks`);
    const batches = embeddings.requests.slice(before);
    assert.equal(batches.length, 1, 'the chunks are embedded in one batch');
    assert.equal(batches[0]!.length, ready.chunkCount);
    assert.match(batches[0]![0]!, /^Piers\nSection 0\n/, 'the title and heading are embedded with the chunk');

    const again = await t.inject({
      method: 'POST',
      url: `/v1/knowledge-bases/${id}/documents/${added.json().id}/retry`,
    });
    assert.equal(again.json().status, 'ready', 'a document that has not failed is left as it is');
  });
});

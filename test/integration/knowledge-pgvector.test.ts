import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../helpers/fake-embeddings-server.js';
import { postgresSkip } from '../helpers/environment.js';
import { pgvectorAvailable } from '../helpers/postgres.js';
import { embeddingsEnvironment, newKnowledgeBase, settledDocument } from '../helpers/knowledge.js';
import { createTestApp } from '../helpers/test-app.js';

/**
 * The PostgreSQL vector path (pgvector, HNSW). Where the server has no
 * pgvector package, the vector tests are skipped saying so, and start-up with
 * embeddings configured is checked to fail naming the missing extension.
 */
const available = await pgvectorAvailable();
const vectorSkip =
  postgresSkip ||
  (available ? false : 'pgvector is not installed on this PostgreSQL server (no "vector" in pg_available_extensions)');

describe('knowledge bases on PostgreSQL with pgvector', { skip: vectorSkip }, () => {
  let embeddings: FakeEmbeddingsServer;
  before(async () => {
    embeddings = await startFakeEmbeddingsServer();
  });
  after(async () => embeddings?.close());

  it('indexes vectors with HNSW and searches them', async () => {
    const t = await createTestApp({ backend: 'postgres', env: embeddingsEnvironment(embeddings.baseUrl) });
    try {
      const id = await newKnowledgeBase(t);
      const added = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${id}/documents`,
        payload: { title: 'Fuel', content: 'The fuel dock sells diesel only and closes at six.' },
      });
      assert.equal((await settledDocument(t, id, added.json().id)).status, 'ready');
      const search = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${id}/search`,
        payload: { query: 'diesel fuel dock', mode: 'vector' },
      });
      assert.equal(search.json().mode, 'vector');
      assert.equal(search.json().data[0].documentId, added.json().id);
    } finally {
      await t.close();
    }
  });
});

describe(
  'start-up on PostgreSQL without pgvector',
  { skip: postgresSkip || (available ? 'pgvector is installed here' : false) },
  () => {
    it('stops with an error naming the missing extension when embeddings are configured', async () => {
      const embeddings = await startFakeEmbeddingsServer();
      try {
        await assert.rejects(
          createTestApp({ backend: 'postgres', env: embeddingsEnvironment(embeddings.baseUrl) }),
          /PostgreSQL extension "vector" \(pgvector\) is not installed/,
        );
      } finally {
        await embeddings.close();
      }
    });
  },
);

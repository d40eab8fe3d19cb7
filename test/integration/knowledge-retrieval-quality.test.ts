import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../helpers/fake-embeddings-server.js';
import { embeddingsEnvironment, newKnowledgeBase, settledDocument } from '../helpers/knowledge.js';
import { pgvectorSkip } from '../helpers/postgres.js';
import { repositoryPath } from '../helpers/repository.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Retrieval quality on a corpus written for the tests (test/fixtures/knowledge/corpus.json:
 * 50 short documents about a harbour town, 40 questions each answered by one of them):
 * recall@5, the share of questions whose answering document is among the first five
 * chunks, for full text alone and for hybrid retrieval. The figures are printed (and
 * recorded in bench/README.md); hybrid must not be worse than full text.
 */
interface Corpus {
  documents: Array<{ title: string; content: string }>;
  queries: Array<{ query: string; answer: number }>;
}
const corpus = JSON.parse(
  fs.readFileSync(repositoryPath('test', 'fixtures', 'knowledge', 'corpus.json'), 'utf8'),
) as Corpus;

async function loadCorpus(t: TestApp): Promise<{ knowledgeBaseId: string; documentIds: string[] }> {
  const knowledgeBaseId = await newKnowledgeBase(t, undefined, 'Harbour town');
  const documentIds: string[] = [];
  for (const document of corpus.documents) {
    const response = await t.inject({
      method: 'POST',
      url: `/v1/knowledge-bases/${knowledgeBaseId}/documents`,
      payload: document,
    });
    assert.equal(response.statusCode, 202, response.body);
    documentIds.push(response.json().id);
  }
  for (const id of documentIds) assert.equal((await settledDocument(t, knowledgeBaseId, id)).status, 'ready');
  return { knowledgeBaseId, documentIds };
}

async function recallAt(
  limit: number,
  t: TestApp,
  knowledgeBaseId: string,
  documentIds: string[],
  mode: 'text' | 'hybrid' | 'vector',
): Promise<number> {
  let found = 0;
  for (const { query, answer } of corpus.queries) {
    const response = await t.inject({
      method: 'POST',
      url: `/v1/knowledge-bases/${knowledgeBaseId}/search`,
      payload: { query, limit, mode },
    });
    assert.equal(response.statusCode, 200);
    if (response.json().data.some((chunk: { documentId: string }) => chunk.documentId === documentIds[answer]))
      found += 1;
  }
  return found / corpus.queries.length;
}

describe('the retrieval corpus', () => {
  it('has at least 50 documents and 30 questions, each answered by a document', () => {
    assert.ok(corpus.documents.length >= 50);
    assert.ok(corpus.queries.length >= 30);
    for (const query of corpus.queries) assert.ok(corpus.documents[query.answer], query.query);
  });
});

describe('retrieval quality on SQLite (FTS5 + sqlite-vec, fake embeddings)', () => {
  let t: TestApp;
  let embeddings: FakeEmbeddingsServer;
  before(async () => {
    embeddings = await startFakeEmbeddingsServer();
    t = await createTestApp({ env: embeddingsEnvironment(embeddings.baseUrl) });
  });
  after(async () => {
    await t?.close();
    await embeddings?.close();
  });

  it('finds the answering document in the top five at least as often with hybrid retrieval as with full text', async (context) => {
    const { knowledgeBaseId, documentIds } = await loadCorpus(t);
    const recall = async (limit: number) => {
      const [text, vector, hybrid] = [
        await recallAt(limit, t, knowledgeBaseId, documentIds, 'text'),
        await recallAt(limit, t, knowledgeBaseId, documentIds, 'vector'),
        await recallAt(limit, t, knowledgeBaseId, documentIds, 'hybrid'),
      ];
      context.diagnostic(
        `recall@${limit} over ${corpus.queries.length} questions: full text ${text.toFixed(3)}, vector ${vector.toFixed(3)}, hybrid ${hybrid.toFixed(3)}`,
      );
      return { text, hybrid };
    };
    await recall(1);
    const { text, hybrid } = await recall(5);
    assert.ok(text >= 0.6, `full text recall@5 ${text}`);
    assert.ok(hybrid >= text, `hybrid ${hybrid} < full text ${text}`);
  });
});

const postgres = backends.find((backend) => backend.name === 'postgres')!;
describe('retrieval quality on PostgreSQL (full text: tsvector + GIN)', { skip: postgres.skip }, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ backend: 'postgres', env: { AGENTD_KNOWLEDGE_POLL_MS: '50' } });
  });
  after(async () => t?.close());

  it('finds the answering document in the top five with full text alone', async (context) => {
    const { knowledgeBaseId, documentIds } = await loadCorpus(t);
    const text = await recallAt(5, t, knowledgeBaseId, documentIds, 'text');
    context.diagnostic(`PostgreSQL full-text recall@5 over ${corpus.queries.length} questions: ${text.toFixed(3)}`);
    assert.ok(text >= 0.6, `full text recall@5 ${text}`);
  });
});

describe(
  'retrieval quality on PostgreSQL (tsvector + pgvector HNSW, fake embeddings)',
  { skip: await pgvectorSkip() },
  () => {
    let t: TestApp;
    let embeddings: FakeEmbeddingsServer;
    before(async () => {
      embeddings = await startFakeEmbeddingsServer();
      t = await createTestApp({ backend: 'postgres', env: embeddingsEnvironment(embeddings.baseUrl) });
    });
    after(async () => {
      await t?.close();
      await embeddings?.close();
    });

    it('finds the answering document in the top five with hybrid retrieval for at least 95 % of the questions', async (context) => {
      const { knowledgeBaseId, documentIds } = await loadCorpus(t);
      const [text, vector, hybrid] = [
        await recallAt(5, t, knowledgeBaseId, documentIds, 'text'),
        await recallAt(5, t, knowledgeBaseId, documentIds, 'vector'),
        await recallAt(5, t, knowledgeBaseId, documentIds, 'hybrid'),
      ];
      context.diagnostic(
        `PostgreSQL recall@5 over ${corpus.queries.length} questions: full text ${text.toFixed(3)}, vector ${vector.toFixed(3)}, hybrid ${hybrid.toFixed(3)}`,
      );
      assert.ok(hybrid >= 0.95, `hybrid recall@5 ${hybrid}`);
      assert.ok(hybrid >= text, `hybrid ${hybrid} < full text ${text}`);
    });
  },
);

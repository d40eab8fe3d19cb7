import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../helpers/fake-embeddings-server.js';
import { postgresSkip } from '../helpers/environment.js';
import { pgvectorAvailable, pgvectorSkip } from '../helpers/postgres.js';
import { embeddingsEnvironment, newKnowledgeBase, settledDocument } from '../helpers/knowledge.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import type { Executor } from '../../src/storage/schema.js';
import { knowledgeVectorLayout } from '../../src/storage/repositories/knowledge-bases.js';
import { VectorIndex } from '../../src/storage/repositories/vector-index.js';

/**
 * The PostgreSQL vector path (pgvector, HNSW on cosine distance): documents
 * are found by vector, deleted ones never again, and a knowledge base that is
 * a small minority of the index shared by every base still gets its k
 * nearest chunks. Where the server has no pgvector these tests are skipped
 * saying so (under CI they run and fail), and start-up with embeddings
 * configured is checked to fail naming the missing extension.
 */
const available = await pgvectorAvailable();
const vectorSkip = await pgvectorSkip();

/** Seeded (mulberry32), so a failure is the same on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Vectors with neighbourhoods, as embeddings of text have (uniform random ones have none, and no approximate
 * index finds their "nearest"): 40 centres, each point a centre plus noise, normalized.
 */
function clusteredVectors(count: number, seed: number, dimensions = 384): number[][] {
  const random = generator(1);
  const centres = Array.from({ length: 40 }, () => Array.from({ length: dimensions }, () => random() * 2 - 1));
  const draw = generator(seed);
  return Array.from({ length: count }, () => {
    const centre = centres[Math.floor(draw() * centres.length)]!;
    const point = centre.map((value) => value + (draw() * 2 - 1) * 0.5);
    const norm = Math.hypot(...point);
    return point.map((value) => value / norm);
  });
}

const cosineDistance = (a: number[], b: number[]) => 1 - a.reduce((sum, value, index) => sum + value * b[index]!, 0);

describe('knowledge bases on PostgreSQL with pgvector', { skip: vectorSkip }, () => {
  let embeddings: FakeEmbeddingsServer;
  let t: TestApp;
  before(async () => {
    embeddings = await startFakeEmbeddingsServer();
    t = await createTestApp({ backend: 'postgres', env: embeddingsEnvironment(embeddings.baseUrl) });
  });
  after(async () => {
    await t?.close();
    await embeddings?.close();
  });

  async function addDocument(knowledgeBaseId: string, title: string, content: string): Promise<string> {
    const added = await t.inject({
      method: 'POST',
      url: `/v1/knowledge-bases/${knowledgeBaseId}/documents`,
      payload: { title, content },
    });
    assert.equal(added.statusCode, 202, added.body);
    assert.equal((await settledDocument(t, knowledgeBaseId, added.json().id)).status, 'ready');
    return added.json().id;
  }

  async function vectorSearch(knowledgeBaseId: string, query: string) {
    const search = await t.inject({
      method: 'POST',
      url: `/v1/knowledge-bases/${knowledgeBaseId}/search`,
      payload: { query, mode: 'vector' },
    });
    assert.equal(search.statusCode, 200, search.body);
    assert.equal(search.json().mode, 'vector');
    return search.json().data as Array<{ documentId: string }>;
  }

  const vectors = () => t.deps.services.repositories.knowledgeBases.vectors!;
  const vectorCount = async (knowledgeBaseId: string) => {
    const { rows } = await sql<{ count: string }>`select count(*) as count from ${sql.table(vectors().table)}
      where knowledge_base_id = ${knowledgeBaseId}`.execute(t.deps.database.db);
    return Number(rows[0]!.count);
  };

  it('indexes vectors with HNSW on cosine distance and searches them', async () => {
    const id = await newKnowledgeBase(t);
    const fuel = await addDocument(id, 'Fuel', 'The fuel dock sells diesel only and closes at six.');
    await addDocument(id, 'Moorings', 'Visitor moorings cost twelve euros a night, paid at the harbour office.');
    assert.equal((await vectorSearch(id, 'diesel fuel dock'))[0]!.documentId, fuel);
    const { rows } = await sql<{ definition: string }>`select indexdef as definition from pg_indexes
      where schemaname = current_schema() and tablename = ${vectors().table}
        and indexdef like '%USING hnsw%'`.execute(t.deps.database.db);
    assert.equal(rows.length, 1);
    assert.match(rows[0]!.definition, /vector_cosine_ops/);
    // Built wider than pgvector's default graph (ef_construction 64), for recall at a million chunks.
    assert.match(rows[0]!.definition, /WITH \(m='?16'?, ef_construction='?128'?\)/);
  });

  it('never finds a deleted document again, and deletes the vectors of a deleted base', async () => {
    const id = await newKnowledgeBase(t);
    const fuel = await addDocument(id, 'Fuel', 'The fuel dock sells diesel only and closes at six.');
    const moorings = await addDocument(id, 'Moorings', 'Visitor moorings cost twelve euros a night.');
    const before = await vectorCount(id);
    assert.ok(before >= 2);

    const deleted = await t.inject({ method: 'DELETE', url: `/v1/knowledge-bases/${id}/documents/${fuel}` });
    assert.equal(deleted.statusCode, 200, deleted.body);
    const found = await vectorSearch(id, 'diesel fuel dock');
    assert.ok(found.length > 0);
    assert.ok(
      found.every((chunk) => chunk.documentId === moorings),
      'only the document left is found',
    );
    assert.ok((await vectorCount(id)) < before);

    assert.equal((await t.inject({ method: 'DELETE', url: `/v1/knowledge-bases/${id}` })).statusCode, 200);
    assert.equal(await vectorCount(id), 0);
  });

  it('returns the k nearest of a base that is a small minority of the shared index', async () => {
    const index = vectors();
    const db = t.deps.database.db;
    // 2,000 vectors in 20 other bases, 25 (1.2 %) in the one searched: HNSW's first 40 candidates hold about
    // half of one of its rows.
    const crowd = clusteredVectors(2000, 2);
    const few = clusteredVectors(25, 3);
    const others = Array.from({ length: 20 }, (_, number) => `kb_crowd_${number}`);
    await db
      .transaction()
      .execute((transaction) =>
        index.insert(
          [
            ...crowd.map((vector, number) => ({ key: 1_000_000 + number, partition: others[number % 20]!, vector })),
            ...few.map((vector, number) => ({ key: 2_000_000 + number, partition: 'kb_minority', vector })),
          ],
          transaction,
        ),
      );
    await sql`analyze ${sql.table(index.table)}`.execute(db);
    const queries = clusteredVectors(10, 4);
    const exactNearest = (query: number[]) =>
      few
        .map((vector, number) => ({ key: 2_000_000 + number, distance: cosineDistance(query, vector) }))
        .sort((a, b) => a.distance - b.distance)
        .slice(0, 10)
        .map((match) => match.key);

    const searchAll = async (through: VectorIndex = index, executor: Executor = db) => {
      let hits = 0;
      for (const query of queries) {
        const matches = await through.search(['kb_minority'], query, 10, executor);
        assert.equal(matches.length, 10, 'k results, not what HNSW alone would leave after filtering');
        assert.ok(matches.every((match) => match.key >= 2_000_000));
        assert.deepEqual(
          matches.map((match) => match.distance),
          matches.map((match) => match.distance).sort((a, b) => a - b),
          'nearest first',
        );
        const truth = new Set(exactNearest(query));
        hits += matches.filter((match) => truth.has(match.key)).length;
      }
      return hits / (queries.length * 10);
    };
    // As shipped: so small a base is compared exactly.
    assert.equal(await searchAll(), 1);

    // Through HNSW: an index told to compare no base exactly, in a transaction rolled back at the end, without
    // the b-tree and with sequential scans off (the planner has the HNSW index only). The iterative scan still
    // finds k of the base's rows.
    const throughHnsw = new VectorIndex(db, 'postgres', index.dimensions, {
      ...knowledgeVectorLayout,
      postgres: { ...knowledgeVectorLayout.postgres, exactUpTo: 0 },
    });
    const rolledBack = new Error('rolled back');
    await assert.rejects(
      db.transaction().execute(async (transaction) => {
        await sql`drop index ${sql.raw(`${index.table}_partition_idx`)}`.execute(transaction);
        await sql`set local enable_seqscan = off`.execute(transaction);
        assert.ok((await searchAll(throughHnsw, transaction)) >= 0.9);
        // The case is a real one: the same plan without iterative scans falls short.
        const { rows: extension } = await sql<{ schema: string }>`select nspname as schema from pg_extension
          join pg_namespace on pg_namespace.oid = extnamespace where extname = 'vector'`.execute(transaction);
        const schema = extension[0]!.schema; // pgvector lives in the schema of whichever test created it first
        await sql`set local hnsw.iterative_scan = off`.execute(transaction);
        const { rows } = await sql`select search_id from ${sql.table(index.table)}
          where knowledge_base_id = 'kb_minority'
          order by embedding operator(${sql.id(schema)}.<=>) ${`[${queries[0]!.join(',')}]`}::${sql.id(schema, 'vector')}
          limit 10`.execute(transaction);
        assert.ok(rows.length < 10, `HNSW without iterative scans returned ${rows.length}`);
        throw rolledBack;
      }),
      rolledBack,
    );
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

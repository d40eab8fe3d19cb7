/**
 * How vector retrieval scales on both stores: seeds one knowledge base with chunks carrying clustered unit
 * vectors of 384 dimensions (bench/knowledge-scale/clustered-vectors.ts: the same rows on both stores), and at
 * each size times the vector search retrieval runs (VectorIndex.search over knowledgeVectorLayout, top 10) for
 * queries drawn like the rows: p50 and p99, recall@10 against the exact top 10 of the same rows (computed here,
 * in JavaScript), seeding and index build time, disk size. Markdown tables.
 *
 *   npm run bench:knowledge-scale -- [--sizes 10000,100000] [--queries 100] [--stores sqlite,postgres]
 *                                    [--filtered 100000]
 *
 * SQLite (sqlite-vec, exact search) in a new file in the temporary directory, removed at the end. PostgreSQL
 * (pgvector, HNSW) in a database of its own on the server of DATABASE_URL, dropped at the end: rows are loaded
 * without the HNSW index, which is then built (as `VectorIndex.ensure` creates it) with maintenance_work_mem
 * at 2GB; then 1,000 rows are added and deleted through the index as ingestion and deletion do. `--filtered N`
 * also compares the ways to search one base among many at N rows (bench/knowledge-scale/filtered-search.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import { monotonicFactory } from 'ulid';
import { openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { knowledgeVectorLayout } from '../src/storage/repositories/knowledge-bases.js';
import { hnswBuildOptions, VectorIndex } from '../src/storage/repositories/vector-index.js';
import { createFreshDatabase } from '../test/helpers/postgres.js';
import {
  dimensions,
  ExactNearest,
  percentile,
  queryVector,
  rowVector,
  vectorText,
} from './knowledge-scale/clustered-vectors.js';
import { compareEmbeddedCandidates } from './knowledge-scale/embedded-candidates.js';
import { compareFilteredSearches } from './knowledge-scale/filtered-search.js';

const { values: options } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    queries: { type: 'string', default: '100' },
    stores: { type: 'string', default: 'sqlite,postgres' },
    filtered: { type: 'string', default: '0' },
    'ef-search': { type: 'string', default: '' },
    candidates: { type: 'string', default: '0' },
  },
});
const sizes = options.sizes!.split(',').map(Number);
const queryCount = Number(options.queries);
const stores = new Set(options.stores!.split(','));
const nextUlid = monotonicFactory();
const k = 10;
const knowledgeBaseId = 'kb_bench';
const queries = Array.from({ length: queryCount }, (_, number) => queryVector(number));
const efSearchSweep = options['ef-search'] ? options['ef-search'].split(',').map(Number) : [];

interface Measured {
  size: number;
  seedSeconds: number;
  buildSeconds: number | null;
  megabytes: number;
  timings: number[];
  recall: number;
}

/** Warm-up (10 queries), then every query timed; each answer's keys turned back into row positions. */
async function measureSearches(
  index: VectorIndex,
  exact: ExactNearest,
  positionOf: (key: number) => number,
  count = queries.length,
): Promise<{ timings: number[]; recall: number }> {
  for (const query of queries.slice(0, 10)) await index.search([knowledgeBaseId], [...query], k);
  const timings: number[] = [];
  const found: number[][] = [];
  for (const query of queries.slice(0, count)) {
    const begun = performance.now();
    const matches = await index.search([knowledgeBaseId], [...query], k);
    timings.push(performance.now() - begun);
    if (matches.length !== k) throw new Error(`expected ${k} matches, got ${matches.length}`);
    found.push(matches.map((match) => positionOf(match.key)));
  }
  return { timings, recall: exact.recall(found) };
}

function printTable(store: string, rows: Measured[]): void {
  console.log(`\n${store}\n`);
  console.log('| chunks | seeding (s) | index build (s) | disk (MB) | top-10 p50 (ms) | p99 (ms) | recall@10 |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.size.toLocaleString('en')} | ${row.seedSeconds.toFixed(1)} | ${row.buildSeconds === null ? '—' : row.buildSeconds.toFixed(1)} | ${row.megabytes.toFixed(0)} | ${percentile(row.timings, 0.5).toFixed(2)} | ${percentile(row.timings, 0.99).toFixed(2)} | ${row.recall.toFixed(3)} |`,
    );
  }
}

async function sqliteRun(): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-knowledge-scale-'));
  const file = path.join(directory, 'bench.sqlite');
  const handle = openDatabase({ kind: 'sqlite', file });
  const results: Measured[] = [];
  const exactResults: string[] = [];
  const graphLines: string[] = [];
  try {
    await migrateToLatest(handle);
    const plain = new VectorIndex(handle.db, 'sqlite', dimensions, knowledgeVectorLayout);
    await plain.ensure();
    const documentId = `doc_${nextUlid()}`;
    const exact = new ExactNearest(queries, k);

    // Seeding goes straight through better-sqlite3 in large transactions: it is setup, not what is measured.
    const seeder = new SqliteDatabase(file);
    seeder.pragma('journal_mode = WAL');
    seeder.pragma('synchronous = OFF');
    sqliteVec.load(seeder);
    const insertChunk = seeder.prepare(
      `insert into knowledge_chunks (search_id, id, knowledge_base_id, document_id, position, title, heading, content, token_count)
       values (?, ?, ?, ?, ?, 'Bench', null, ?, 8)`,
    );
    const insertVector = seeder.prepare(
      `insert into ${plain.table} (rowid, knowledge_base_id, embedding) values (?, ?, ?)`,
    );
    // The chunk's search_id (and the vector's rowid) is its position + 1.
    const seed = seeder.transaction((from: number, to: number) => {
      for (let position = from; position < to; position += 1) {
        const vector = rowVector(position);
        exact.add(position, vector);
        insertChunk.run(position + 1, `chk_${nextUlid()}`, knowledgeBaseId, documentId, position, `chunk ${position}`);
        insertVector.run(BigInt(position + 1), knowledgeBaseId, Buffer.from(vector.buffer));
      }
    });
    let seeded = 0;
    for (const size of sizes) {
      const started = performance.now();
      for (let from = seeded; from < size; from += 10_000) seed(from, Math.min(size, from + 10_000));
      const seedSeconds = (performance.now() - started) / 1000;
      seeded = size;
      seeder.pragma('wal_checkpoint(TRUNCATE)');

      // The exact search alone (what agentd does below the graph's threshold), 20 queries: slow at 1,000,000.
      const exactRun = await measureSearches(plain, exact, (key) => key - 1, 20);
      exactResults.push(
        `| ${size.toLocaleString('en')} | ${percentile(exactRun.timings, 0.5).toFixed(2)} | ${percentile(exactRun.timings, 0.99).toFixed(2)} | ${exactRun.recall.toFixed(3)} |`,
      );

      // The graph as agentd builds it at start-up from the rows (the rows were written around it, so from scratch).
      const graphFile = `${file}-${plain.table}.usearch`;
      fs.rmSync(graphFile, { force: true });
      fs.rmSync(`${graphFile}.json`, { force: true });
      const rssBefore = process.memoryUsage().rss;
      const building = performance.now();
      let index = new VectorIndex(handle.db, 'sqlite', dimensions, knowledgeVectorLayout, { databaseFile: file });
      await index.ensure();
      await index.graph!.settled();
      const buildSeconds = (performance.now() - building) / 1000;
      const rssGrowth = (process.memoryUsage().rss - rssBefore) / 1_048_576;
      const hasGraph = index.graph!.ready;
      await index.close();
      // A restart: the saved graph is loaded (its checksum verified), not rebuilt.
      const loading = performance.now();
      index = new VectorIndex(handle.db, 'sqlite', dimensions, knowledgeVectorLayout, { databaseFile: file });
      await index.ensure();
      await index.graph!.settled();
      const loadSeconds = (performance.now() - loading) / 1000;
      if (index.graph!.ready !== hasGraph) throw new Error('the saved graph was not loaded');
      const { timings, recall } = await measureSearches(index, exact, (key) => key - 1);
      const graphBytes = hasGraph ? fs.statSync(graphFile).size + fs.statSync(`${graphFile}.json`).size : 0;
      results.push({
        size,
        seedSeconds,
        buildSeconds: hasGraph ? buildSeconds : null,
        megabytes: (fs.statSync(file).size + graphBytes) / 1_048_576,
        timings,
        recall,
      });

      // Ingestion and deletion through the graph: 1,000 rows added (one transaction), found, deleted, gone.
      const added = Array.from({ length: 1000 }, (_, offset) => ({
        key: 10_000_000 + offset,
        partition: 'kb_incoming',
        vector: [...rowVector(20_000_000 + offset)],
      }));
      const inserting = performance.now();
      await handle.db.transaction().execute((transaction) => index.insert(added, transaction));
      const insertMs = performance.now() - inserting;
      const catching = performance.now();
      const found = await index.search(['kb_incoming', knowledgeBaseId], added[0]!.vector, k);
      await index.graph!.settled();
      const catchUpMs = performance.now() - catching;
      if (found[0]?.key !== added[0]!.key && hasGraph && index.graph!.size > 0) {
        const again = await index.search(['kb_incoming', knowledgeBaseId], added[0]!.vector, k);
        if (again[0]?.key !== added[0]!.key) throw new Error('an added vector was not found');
      }
      const deleting = performance.now();
      await handle.db.transaction().execute((transaction) =>
        index.delete(
          added.map((row) => row.key),
          transaction,
        ),
      );
      const deleteMs = performance.now() - deleting;
      const left = await index.search(['kb_incoming'], added[0]!.vector, k);
      if (left.length !== 0) throw new Error('deleted vectors were still found');
      await index.close();
      graphLines.push(
        `| ${size.toLocaleString('en')} | ${hasGraph ? 'yes' : 'no (exact)'} | ${hasGraph ? buildSeconds.toFixed(1) : '—'} | ${hasGraph ? loadSeconds.toFixed(2) : '—'} | ${(graphBytes / 1_048_576).toFixed(0)} | ${hasGraph ? rssGrowth.toFixed(0) : '—'} | ${(insertMs / 1000).toFixed(2)} | ${catchUpMs.toFixed(0)} | ${deleteMs.toFixed(0)} |`,
      );
      console.error(`sqlite: ${size} done`);
    }
    seeder.close();
  } finally {
    await handle.close();
    fs.rmSync(directory, { recursive: true, force: true });
  }
  printTable(
    'SQLite as agentd searches (HNSW graph from 20,000 rows, usearch; bases up to max(10,000, rows/50) exact; disk: database file and graph file)',
    results,
  );
  console.log('\nSQLite, exact search alone (sqlite-vec), 20 queries\n');
  console.log('| chunks | p50 (ms) | p99 (ms) | recall@10 |');
  console.log('|---:|---:|---:|---:|');
  for (const line of exactResults) console.log(line);
  console.log(
    '\nSQLite graph: built at start-up from the rows, loaded after a restart; 1,000 rows added (one transaction), applied by the next search, then deleted\n',
  );
  console.log(
    '| chunks | graph | build (s) | load after restart (s) | graph file (MB) | RSS growth at build (MiB) | insert (s) | catch-up (ms) | delete (ms) |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const line of graphLines) console.log(line);
}

/**
 * The search statement alone (no transaction round trips timed) at fixed `hnsw.ef_search` values: what recall
 * and time each breadth gives at this size, to set agentd's breadth by.
 */
async function sweepSearchBreadth(
  handle: ReturnType<typeof openDatabase>,
  table: string,
  exact: ExactNearest,
  size: number,
  lines: string[],
): Promise<void> {
  for (const efSearch of efSearchSweep) {
    const timings: number[] = [];
    const found: number[][] = [];
    await handle.db.transaction().execute(async (transaction) => {
      await sql`select set_config('hnsw.iterative_scan', 'relaxed_order', true),
        set_config('hnsw.ef_search', ${String(efSearch)}, true)`.execute(transaction);
      const search = (query: Float32Array) =>
        sql<{ search_id: string }>`with nearest as materialized (
            select search_id, embedding <=> ${vectorText(query)}::vector as distance from ${sql.table(table)}
            where knowledge_base_id = ${knowledgeBaseId} order by distance limit ${k})
          select search_id from nearest order by distance + 0`.execute(transaction);
      for (const query of queries.slice(0, 10)) await search(query);
      for (const query of queries) {
        const begun = performance.now();
        const { rows } = await search(query);
        timings.push(performance.now() - begun);
        found.push(rows.map((row) => Number(row.search_id) - 1));
      }
    });
    lines.push(
      `| ${size.toLocaleString('en')} | ${efSearch} | ${percentile(timings, 0.5).toFixed(2)} | ${percentile(timings, 0.99).toFixed(2)} | ${exact.recall(found).toFixed(3)} |`,
    );
  }
}

/** A pool whose sessions may use 2GB to build the HNSW graph in memory (the default 64MB spills to disk). */
function withBuildMemory(url: string): string {
  const withOptions = new URL(url);
  withOptions.searchParams.set('options', '-c maintenance_work_mem=2GB');
  return withOptions.toString();
}

async function postgresRun(baseUrl: string): Promise<void> {
  const database = await createFreshDatabase(baseUrl, 'agentd_bench_vectors');
  const handle = openDatabase({ kind: 'postgres', url: withBuildMemory(database.url), poolSize: 4 });
  const results: Measured[] = [];
  const incremental: string[] = [];
  const sweep: string[] = [];
  try {
    const index = new VectorIndex(handle.db, 'postgres', dimensions, knowledgeVectorLayout);
    await index.ensure();
    const table = sql.table(index.table);
    const hnsw = sql.raw(`${index.table}_hnsw_idx`);
    const exact = new ExactNearest(queries, k);
    let seeded = 0;
    for (const size of sizes) {
      // Loaded without the HNSW index, then built at once: how a large collection is best loaded.
      await sql`drop index if exists ${hnsw}`.execute(handle.db);
      const started = performance.now();
      for (let from = seeded; from < size; from += 1000) {
        const positions = Array.from({ length: Math.min(1000, size - from) }, (_, offset) => from + offset);
        const vectors = positions.map((position) => {
          const vector = rowVector(position);
          exact.add(position, vector);
          return vectorText(vector);
        });
        await sql`insert into ${table} (search_id, knowledge_base_id, embedding)
          select * from unnest(${positions.map((position) => position + 1)}::bigint[],
            ${positions.map(() => knowledgeBaseId)}::text[], ${vectors}::text[]::vector[])`.execute(handle.db);
      }
      const seedSeconds = (performance.now() - started) / 1000;
      seeded = size;
      const building = performance.now();
      await index.ensure();
      const buildSeconds = (performance.now() - building) / 1000;
      await sql`vacuum analyze ${table}`.execute(handle.db);
      const { rows } = await sql<{ bytes: string }>`select pg_total_relation_size(${index.table}) as bytes`.execute(
        handle.db,
      );
      const { timings, recall } = await measureSearches(index, exact, (key) => key - 1);
      results.push({ size, seedSeconds, buildSeconds, megabytes: Number(rows[0]!.bytes) / 1_048_576, timings, recall });
      await sweepSearchBreadth(handle, index.table, exact, size, sweep);

      // What ingestion and deletion cost once the index exists: 1,000 rows added through it, then deleted.
      const added = Array.from({ length: 1000 }, (_, offset) => ({
        key: 10_000_000 + offset,
        partition: 'kb_incoming',
        vector: [...rowVector(20_000_000 + offset)],
      }));
      const inserting = performance.now();
      await handle.db.transaction().execute((transaction) => index.insert(added, transaction));
      const insertMs = performance.now() - inserting;
      const deleting = performance.now();
      await index.delete(
        added.map((row) => row.key),
        handle.db,
      );
      const deleteMs = performance.now() - deleting;
      const left = await index.search(['kb_incoming'], added[0]!.vector, k);
      if (left.length !== 0) throw new Error('deleted vectors were still found');
      incremental.push(
        `| ${size.toLocaleString('en')} | ${(insertMs / 1000).toFixed(2)} | ${(1000 / (insertMs / 1000)).toFixed(0)} | ${deleteMs.toFixed(0)} |`,
      );
      console.error(`postgres: ${size} done`);
    }
  } finally {
    await handle.close();
    await database.drop();
  }
  printTable(
    `PostgreSQL (pgvector 0.8, HNSW m ${hnswBuildOptions.m}, ef_construction ${hnswBuildOptions.efConstruction}, ef_search by table size, iterative scan; disk: vector table and its indexes)`,
    results,
  );
  console.log('\nPostgreSQL, 1,000 rows added through the built index (one transaction), then deleted\n');
  console.log('| chunks | insert (s) | rows/s | delete (ms) |');
  console.log('|---:|---:|---:|---:|');
  for (const line of incremental) console.log(line);
  if (sweep.length > 0) {
    console.log('\nPostgreSQL, the search statement alone at fixed hnsw.ef_search (iterative scan, re-sorted)\n');
    console.log('| chunks | ef_search | p50 (ms) | p99 (ms) | recall@10 |');
    console.log('|---:|---:|---:|---:|---:|');
    for (const line of sweep) console.log(line);
  }
}

console.log(
  `knowledge-scale: clustered vectors of ${dimensions} dimensions, sizes ${sizes.map((size) => size.toLocaleString('en')).join(', ')}, top ${k}, ${queryCount} queries per size`,
);
if (Number(options.candidates) > 0) await compareEmbeddedCandidates(Number(options.candidates), queryCount);
if (stores.has('sqlite')) await sqliteRun();
const databaseUrl = process.env.DATABASE_URL;
if (stores.has('postgres') || Number(options.filtered) > 0) {
  if (!databaseUrl?.startsWith('postgres')) {
    console.log('\nPostgreSQL: DATABASE_URL is not set; not measured.');
  } else {
    if (stores.has('postgres')) await postgresRun(databaseUrl);
    if (Number(options.filtered) > 0)
      await compareFilteredSearches(withBuildMemory(databaseUrl), Number(options.filtered));
  }
}

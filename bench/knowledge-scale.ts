/**
 * How vector retrieval scales: seeds one knowledge base with chunks carrying
 * random unit vectors (384 dimensions), up to 1,000,000, and at each size
 * times the vector search the retrieval runs (VectorIndex.search over knowledgeVectorLayout,
 * top 10) for random query vectors: p50 and p95 per size, as a Markdown table.
 *
 *   npm run bench:knowledge-scale -- [--chunks 1000000] [--sizes 10000,100000,250000,500000,1000000] [--queries 20]
 *
 * SQLite (sqlite-vec, exact search) in a new file in the temporary directory,
 * removed at the end. PostgreSQL (pgvector, HNSW) is measured only where the
 * server of DATABASE_URL offers the extension; otherwise the run says so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import * as sqliteVec from 'sqlite-vec';
import { monotonicFactory } from 'ulid';
import { openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { knowledgeVectorLayout } from '../src/storage/repositories/knowledge-bases.js';
import { VectorIndex } from '../src/storage/repositories/vector-index.js';

const { values: options } = parseArgs({
  options: {
    chunks: { type: 'string', default: '1000000' },
    sizes: { type: 'string', default: '10000,100000,250000,500000,1000000' },
    queries: { type: 'string', default: '20' },
  },
});
const dimensions = 384;
const total = Number(options.chunks);
const sizes = options
  .sizes!.split(',')
  .map(Number)
  .filter((size) => size <= total);
const queries = Number(options.queries);
const nextUlid = monotonicFactory();

function randomUnitVector(): Float32Array {
  const vector = new Float32Array(dimensions);
  let norm = 0;
  for (let index = 0; index < dimensions; index += 1) {
    // Box–Muller: normal components give directions uniform on the sphere.
    const value = Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
    vector[index] = value;
    norm += value * value;
  }
  norm = Math.sqrt(norm);
  for (let index = 0; index < dimensions; index += 1) vector[index]! /= norm;
  return vector;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

async function sqliteRun(): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-knowledge-scale-'));
  const file = path.join(directory, 'bench.sqlite');
  const handle = openDatabase({ kind: 'sqlite', file });
  try {
    await migrateToLatest(handle);
    const index = new VectorIndex(handle.db, 'sqlite', dimensions, knowledgeVectorLayout);
    await index.ensure();
    const knowledgeBaseId = `kb_${nextUlid()}`;
    const documentId = `doc_${nextUlid()}`;

    // Seeding goes straight through better-sqlite3 in large transactions: it is setup, not what is measured.
    const seeder = new SqliteDatabase(file);
    seeder.pragma('journal_mode = WAL');
    seeder.pragma('synchronous = OFF');
    sqliteVec.load(seeder);
    const insertChunk = seeder.prepare(
      `insert into knowledge_chunks (id, knowledge_base_id, document_id, position, title, heading, content, token_count)
       values (?, ?, ?, ?, 'Bench', null, ?, 8)`,
    );
    const insertVector = seeder.prepare(
      `insert into ${index.table} (rowid, knowledge_base_id, embedding) values (?, ?, ?)`,
    );
    const seed = seeder.transaction((from: number, to: number) => {
      for (let position = from; position < to; position += 1) {
        const { lastInsertRowid } = insertChunk.run(
          `chk_${nextUlid()}`,
          knowledgeBaseId,
          documentId,
          position,
          `chunk ${position}`,
        );
        insertVector.run(BigInt(lastInsertRowid), knowledgeBaseId, Buffer.from(randomUnitVector().buffer));
      }
    });

    console.log(`| chunks | seeding (s) | file size (MB) | p50 (ms) | p95 (ms) |`);
    console.log(`|---:|---:|---:|---:|---:|`);
    let seeded = 0;
    for (const size of sizes) {
      const started = performance.now();
      for (let from = seeded; from < size; from += 10_000) seed(from, Math.min(size, from + 10_000));
      const seedSeconds = (performance.now() - started) / 1000;
      seeded = size;
      // A warm-up query, then the timed ones.
      await index.search([knowledgeBaseId], [...randomUnitVector()], 10);
      const timings: number[] = [];
      for (let run = 0; run < queries; run += 1) {
        const vector = [...randomUnitVector()];
        const begun = performance.now();
        const matches = await index.search([knowledgeBaseId], vector, 10);
        timings.push(performance.now() - begun);
        if (matches.length !== 10) throw new Error(`expected 10 matches, got ${matches.length}`);
      }
      timings.sort((a, b) => a - b);
      const megabytes = fs.statSync(file).size / 1_048_576;
      console.log(
        `| ${size.toLocaleString('en')} | ${seedSeconds.toFixed(1)} | ${megabytes.toFixed(0)} | ${percentile(timings, 0.5).toFixed(1)} | ${percentile(timings, 0.95).toFixed(1)} |`,
      );
    }
    seeder.close();
  } finally {
    await handle.close();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

async function postgresCheck(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) {
    console.log('\nPostgreSQL: DATABASE_URL is not set; pgvector HNSW not measured.');
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const available = await client.query("select 1 from pg_available_extensions where name = 'vector'");
    if (!available.rowCount) {
      console.log(
        '\nPostgreSQL: the server offers no "vector" extension (pgvector is not installed); HNSW could not be measured here.',
      );
      return;
    }
    console.log(
      '\nPostgreSQL: pgvector is available, but this script does not seed PostgreSQL yet; HNSW not measured.',
    );
  } finally {
    await client.end();
  }
}

console.log(
  `knowledge-scale: ${total.toLocaleString('en')} chunks of ${dimensions} dimensions, top 10, ${queries} queries per size\n`,
);
await sqliteRun();
await postgresCheck();

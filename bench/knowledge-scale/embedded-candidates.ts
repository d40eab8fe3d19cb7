/**
 * Candidates for an approximate vector index on the SQLite default, measured on the same clustered rows
 * (clustered-vectors.ts) at one size: build time, top-10 p50 and p99, recall@10 against the exact top 10,
 * and the size on disk of what each keeps.
 *
 * - sqlite-vec, exact (what agentd does below the approximate index's threshold): a `vec0` float table.
 * - sqlite-vec, binary quantization with exact re-ranking: a `vec0` table of bit vectors (one bit a dimension,
 *   Hamming distance) gives `candidates` rows, whose float vectors are then compared exactly.
 * - usearch (HNSW, prebuilt binary in its npm package), vectors kept as f32, f16 and i8, one thread.
 *
 * hnswlib-node is not measured: it compiles C++ with node-gyp at install (a compiler on every machine that
 * installs agentd, and Node's headers fetched from nodejs.org), which agentd's install rules out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import usearch, { type ScalarKind } from 'usearch';
import { dimensions, ExactNearest, percentile, queryVector, rowVector } from './clustered-vectors.js';

const k = 10;

interface Row {
  candidate: string;
  buildSeconds: number;
  megabytes: number;
  timings: number[];
  recall: number;
}

function measure(queries: Float32Array[], search: (query: Float32Array) => number[]) {
  for (const query of queries.slice(0, 10)) search(query);
  const timings: number[] = [];
  const found: number[][] = [];
  for (const query of queries) {
    const begun = performance.now();
    found.push(search(query));
    timings.push(performance.now() - begun);
  }
  return { timings, found };
}

export async function compareEmbeddedCandidates(size: number, queryCount: number): Promise<void> {
  const queries = Array.from({ length: queryCount }, (_, number) => queryVector(number));
  const exact = new ExactNearest(queries, k);
  const vectors = new Float32Array(size * dimensions);
  for (let position = 0; position < size; position += 1) {
    const vector = rowVector(position);
    vectors.set(vector, position * dimensions);
    exact.add(position, vector);
  }
  const rows: Row[] = [];
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-embedded-candidates-'));
  try {
    const file = path.join(directory, 'vectors.sqlite');
    const database = new SqliteDatabase(file);
    database.pragma('journal_mode = WAL');
    sqliteVec.load(database);
    database.exec(`create virtual table floats using vec0(embedding float[${dimensions}] distance_metric=cosine)`);
    database.exec(`create virtual table bits using vec0(embedding bit[${dimensions}])`);
    const insertFloat = database.prepare('insert into floats (rowid, embedding) values (?, ?)');
    const insertBits = database.prepare('insert into bits (rowid, embedding) values (?, vec_quantize_binary(?))');
    let started = performance.now();
    database.transaction(() => {
      for (let position = 0; position < size; position += 1)
        insertFloat.run(BigInt(position), Buffer.from(vectors.buffer, position * dimensions * 4, dimensions * 4));
    })();
    const floatSeconds = (performance.now() - started) / 1000;
    const floatBytes = fs.statSync(file).size;
    started = performance.now();
    database.transaction(() => {
      for (let position = 0; position < size; position += 1)
        insertBits.run(BigInt(position), Buffer.from(vectors.buffer, position * dimensions * 4, dimensions * 4));
    })();
    const bitSeconds = (performance.now() - started) / 1000;
    database.pragma('wal_checkpoint(TRUNCATE)');
    const bitBytes = fs.statSync(file).size - floatBytes;

    const exactSearch = database.prepare('select rowid from floats where embedding match ? and k = ?');
    const exactRun = measure(queries, (query) =>
      exactSearch.all(Buffer.from(query.buffer), k).map((row) => Number((row as { rowid: number }).rowid)),
    );
    rows.push({
      candidate: 'sqlite-vec, exact (float)',
      buildSeconds: floatSeconds,
      megabytes: floatBytes / 1_048_576,
      timings: exactRun.timings,
      recall: exact.recall(exactRun.found),
    });

    for (const candidates of [100, 400]) {
      const bitSearch = database.prepare(
        'select rowid from bits where embedding match vec_quantize_binary(?) and k = ?',
      );
      const rerank = database.prepare(
        `select rowid from floats where rowid in (select value from json_each(?))
         order by vec_distance_cosine(embedding, ?) limit ${k}`,
      );
      const run = measure(queries, (query) => {
        const bytes = Buffer.from(query.buffer);
        const near = bitSearch.all(bytes, candidates).map((row) => Number((row as { rowid: number }).rowid));
        return rerank.all(JSON.stringify(near), bytes).map((row) => Number((row as { rowid: number }).rowid));
      });
      rows.push({
        candidate: `sqlite-vec, bit vectors, ${candidates} re-ranked exactly`,
        buildSeconds: bitSeconds,
        megabytes: bitBytes / 1_048_576,
        timings: run.timings,
        recall: exact.recall(run.found),
      });
    }
    database.close();

    const keys = BigUint64Array.from({ length: size }, (_, position) => BigInt(position));
    for (const quantization of ['f32', 'f16', 'i8'] as const) {
      const index = new usearch.Index({
        dimensions,
        metric: usearch.MetricKind.Cos,
        quantization: quantization as ScalarKind,
        connectivity: 16,
        expansion_add: 128,
        expansion_search: 64,
        multi: false,
      });
      started = performance.now();
      for (let from = 0; from < size; from += 1000) {
        const to = Math.min(size, from + 1000);
        index.add(keys.subarray(from, to), vectors.subarray(from * dimensions, to * dimensions), 1);
      }
      const buildSeconds = (performance.now() - started) / 1000;
      const indexFile = path.join(directory, `${quantization}.usearch`);
      index.save(indexFile);
      const run = measure(queries, (query) => Array.from(index.search(query, k, 1).keys, Number));
      rows.push({
        candidate: `usearch HNSW (connectivity 16, expansion 128 / 64), ${quantization}`,
        buildSeconds,
        megabytes: fs.statSync(indexFile).size / 1_048_576,
        timings: run.timings,
        recall: exact.recall(run.found),
      });
      console.error(`candidates: usearch ${quantization} done`);
    }
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
  console.log(`\nEmbedded candidates at ${size.toLocaleString('en')} rows, top ${k}, ${queryCount} queries\n`);
  console.log('| candidate | build (s) | disk (MB) | top-10 p50 (ms) | p99 (ms) | recall@10 |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows)
    console.log(
      `| ${row.candidate} | ${row.buildSeconds.toFixed(1)} | ${row.megabytes.toFixed(0)} | ${percentile(row.timings, 0.5).toFixed(2)} | ${percentile(row.timings, 0.99).toFixed(2)} | ${row.recall.toFixed(3)} |`,
    );
}

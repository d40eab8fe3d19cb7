import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { knowledgeVectorLayout } from '../../src/storage/repositories/knowledge-bases.js';
import type { VectorGraphOptions } from '../../src/storage/repositories/vector-graph.js';
import { VectorIndex } from '../../src/storage/repositories/vector-index.js';
import { SeededRandom } from '../durability/seeded-random.js';

/**
 * The approximate index of knowledge vectors on SQLite (an HNSW graph beside the database file): it answers
 * like the exact search, never returns a deleted row, still gives k rows of a base that is a small share of the
 * graph, and comes back right after a restart whatever happened to its file: missing or damaged (rebuilt from
 * the rows), or older than the rows (a crash after rows were written: caught up from the change log).
 */
const dimensions = 16;

/** The seeded mulberry32 of the durability tests, as a function. */
function generator(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}

/** Clustered unit vectors (20 centres plus noise): neighbourhoods an approximate index can find. */
const centres = (() => {
  const random = generator(7);
  return Array.from({ length: 20 }, () => Array.from({ length: dimensions }, () => random() * 2 - 1));
})();
function vectorOf(seed: number): number[] {
  const draw = generator(seed);
  const centre = centres[Math.floor(draw() * centres.length)]!;
  const point = centre.map((value) => value + (draw() * 2 - 1) * 0.4);
  const norm = Math.hypot(...point);
  return point.map((value) => value / norm);
}

/** 2,000 rows: `kb_small` holds every 20th (5 %), the rest spread over 19 other bases. */
const rowCount = 2000;
const baseOf = (key: number) => (key % 20 === 0 ? 'kb_small' : `kb_${key % 19}`);
const rows = Array.from({ length: rowCount }, (_, position) => ({
  key: position + 1,
  partition: baseOf(position + 1),
  vector: vectorOf(position + 1),
}));

/** The graph is always used (no exact comparison of small bases), built from 100 rows. */
const graphOptions = (file: string): VectorGraphOptions => ({ databaseFile: file, buildFrom: 100, exactRows: () => 0 });

describe('the vector graph of knowledge on SQLite', () => {
  let directory: string;
  let file: string;
  let handle: DatabaseHandle;
  const opened: VectorIndex[] = [];

  /** A VectorIndex as agentd opens one at start-up; `wait` for its background build or catch-up. */
  async function start(wait = true): Promise<VectorIndex> {
    const index = new VectorIndex(handle.db, 'sqlite', dimensions, knowledgeVectorLayout, graphOptions(file));
    opened.push(index);
    await index.ensure();
    if (wait) await index.graph!.settled();
    return index;
  }

  async function insert(index: VectorIndex, added: typeof rows): Promise<void> {
    await handle.db.transaction().execute((transaction) => index.insert(added, transaction));
  }

  /** The graph's own answer (null would mean it left the search to the exact comparison). */
  async function graphSearch(index: VectorIndex, partitions: string[], vector: number[], limit = 10) {
    const found = await index.graph!.search(partitions, new Float32Array(vector), limit, handle.db);
    assert.ok(found !== null, 'the graph answered');
    return found;
  }

  /** The exact answer over the same rows: a VectorIndex without a graph. */
  const exact = () => new VectorIndex(handle.db, 'sqlite', dimensions, knowledgeVectorLayout);

  before(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-vector-graph-'));
  });
  after(() => fs.rmSync(directory, { recursive: true, force: true }));
  beforeEach(async () => {
    file = path.join(directory, `${Date.now()}-${Math.random().toString(36).slice(2)}.sqlite`);
    handle = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(handle);
    const first = await start();
    await insert(first, rows);
  });
  afterEach(async () => {
    for (const index of opened.splice(0)) await index.close();
    await handle.close();
  });

  it('builds from the rows and finds what the exact search finds, only in the bases asked', async () => {
    const index = await start();
    assert.equal(index.graph!.ready, true);
    assert.equal(index.graph!.size, rowCount);
    let hits = 0;
    for (let query = 0; query < 20; query += 1) {
      const vector = vectorOf(1_000_000 + query);
      const found = await graphSearch(index, ['kb_3', 'kb_4'], vector);
      assert.equal(found.length, 10);
      for (const match of found) assert.ok(['kb_3', 'kb_4'].includes(baseOf(match.key)));
      const truth = new Set((await exact().search(['kb_3', 'kb_4'], vector, 10)).map((match) => match.key));
      hits += found.filter((match) => truth.has(match.key)).length;
      // Through VectorIndex.search the same graph answers.
      assert.deepEqual(
        (await index.search(['kb_3', 'kb_4'], vector, 10)).map((match) => match.key),
        found.map((match) => match.key),
      );
    }
    assert.ok(hits / 200 >= 0.95, `recall@10 ${hits / 200}`);
  });

  it('returns k rows of a base holding 5 % of the graph, nearest first', async () => {
    const index = await start();
    for (let query = 0; query < 10; query += 1) {
      const found = await graphSearch(index, ['kb_small'], vectorOf(2_000_000 + query));
      assert.equal(found.length, 10);
      assert.ok(found.every((match) => baseOf(match.key) === 'kb_small'));
      for (let position = 1; position < found.length; position += 1)
        assert.ok(found[position]!.distance >= found[position - 1]!.distance);
    }
    // A base with fewer rows than asked for gives all it has.
    await insert(index, [{ key: 5001, partition: 'kb_tiny', vector: vectorOf(5001) }]);
    assert.deepEqual(
      (await graphSearch(index, ['kb_tiny'], vectorOf(5001))).map((match) => match.key),
      [5001],
    );
  });

  it('never returns deleted rows, and a reused key returns with its new vector', async () => {
    const index = await start();
    const target = rows[40]!;
    assert.equal((await graphSearch(index, [target.partition], target.vector, 1))[0]!.key, target.key);
    const deleted = rows.filter((row) => row.partition === target.partition).map((row) => row.key);
    await handle.db.transaction().execute((transaction) => index.delete(deleted, transaction));
    for (let query = 0; query < 5; query += 1)
      assert.deepEqual(await index.search([target.partition], vectorOf(3_000_000 + query), 10), []);
    const remaining = await graphSearch(index, [target.partition, 'kb_1'], target.vector, 50);
    assert.ok(remaining.every((match) => !deleted.includes(match.key)));
    // SQLite may give a deleted rowid to a new row: the graph holds the new vector under it.
    const reused = { key: target.key, partition: 'kb_reused', vector: vectorOf(9_999) };
    await insert(index, [reused]);
    const found = await graphSearch(index, ['kb_reused'], reused.vector, 1);
    assert.equal(found[0]!.key, target.key);
    assert.ok(found[0]!.distance < 1e-5);
  });

  it('rolled-back writes leave the graph as the rows are', async () => {
    const index = await start();
    const added = { key: 7001, partition: 'kb_rolled_back', vector: vectorOf(7001) };
    await assert.rejects(
      handle.db.transaction().execute(async (transaction) => {
        await index.insert([added], transaction);
        throw new Error('abandoned');
      }),
    );
    assert.deepEqual(await index.search(['kb_rolled_back'], added.vector, 10), []);
    await insert(index, [{ ...added, key: 7002 }]);
    assert.deepEqual(
      (await graphSearch(index, ['kb_rolled_back'], added.vector)).map((match) => match.key),
      [7002],
    );
  });

  it('after a restart: loaded from its file at once, and caught up with rows written since it was saved', async () => {
    let index = await start();
    await index.close();
    const graphFile = index.graph!.file!;
    assert.ok(fs.existsSync(graphFile) && fs.existsSync(`${graphFile}.json`));
    const saved = fs.statSync(graphFile).mtimeMs;

    // Rows written and deleted by a process that stopped before saving its graph (a crash).
    const crashed = await start();
    const added = { key: 8001, partition: 'kb_after_crash', vector: vectorOf(8001) };
    await insert(crashed, [added]);
    await handle.db.transaction().execute((transaction) => crashed.delete([rows[0]!.key], transaction));
    opened.splice(opened.indexOf(crashed), 1);
    assert.equal(fs.statSync(graphFile).mtimeMs, saved, 'nothing saved since');

    index = await start(false);
    assert.equal(index.graph!.ready, true, 'loaded from the file without a build');
    assert.deepEqual(
      (await graphSearch(index, ['kb_after_crash'], added.vector)).map((match) => match.key),
      [8001],
    );
    const nearFirst = await graphSearch(index, [rows[0]!.partition], rows[0]!.vector, 20);
    assert.ok(!nearFirst.some((match) => match.key === rows[0]!.key));
  });

  it('rebuilds from the rows when its file is missing', async () => {
    let index = await start();
    await index.close();
    const graphFile = index.graph!.file!;
    fs.rmSync(graphFile);
    index = await start(false);
    assert.equal(await index.graph!.search(['kb_1'], new Float32Array(rows[1]!.vector), 10, handle.db), null);
    await index.graph!.settled();
    assert.equal(index.graph!.size, rowCount);
    assert.equal((await graphSearch(index, [rows[1]!.partition], rows[1]!.vector, 1))[0]!.key, rows[1]!.key);
    await index.close();
    assert.ok(fs.existsSync(graphFile), 'saved again');
  });

  it('rebuilds from the rows when its file is damaged, without loading it', async () => {
    let index = await start();
    await index.close();
    const graphFile = index.graph!.file!;
    const bytes = fs.readFileSync(graphFile);
    bytes.fill(0x5a, 64, Math.min(bytes.length, 4096));
    fs.writeFileSync(graphFile, bytes);
    index = await start(false);
    assert.equal(index.graph!.ready, false);
    await index.graph!.settled();
    assert.equal(index.graph!.size, rowCount);
    assert.equal((await graphSearch(index, [rows[2]!.partition], rows[2]!.vector, 1))[0]!.key, rows[2]!.key);

    // A header that is not JSON is no better.
    await index.close();
    fs.writeFileSync(`${graphFile}.json`, '{"format":');
    index = await start();
    assert.equal(index.graph!.size, rowCount);
  });

  it('a process whose graph is behind a trimmed change log reloads the saved graph', async () => {
    const behind = await start();
    const ahead = await start();
    const added = Array.from({ length: 5 }, (_, offset) => ({
      key: 9001 + offset,
      partition: 'kb_late',
      vector: vectorOf(9001 + offset),
    }));
    await insert(ahead, added);
    assert.equal((await graphSearch(ahead, ['kb_late'], added[0]!.vector, 5)).length, 5);
    await ahead.close();
    const { rows: logged } = await sql<{ rows: number }>`
      select count(*) as rows from ${sql.table(ahead.graph!.changesTable)}`.execute(handle.db);
    assert.equal(Number(logged[0]!.rows), 0, 'the log is trimmed to what the file holds');
    // The first search sees the gap and searches exactly while the graph is reloaded.
    assert.equal(await behind.graph!.search(['kb_late'], new Float32Array(added[0]!.vector), 5, handle.db), null);
    await behind.graph!.settled();
    const found = await graphSearch(behind, ['kb_late'], added[0]!.vector, 5);
    assert.deepEqual(
      found.map((match) => match.key).sort(),
      added.map((row) => row.key),
    );
  });

  it('small tables get no graph: exact search, and none built until the rows reach the bound', async () => {
    const small = path.join(directory, 'small.sqlite');
    const smallHandle = openDatabase({ kind: 'sqlite', file: small });
    try {
      await migrateToLatest(smallHandle);
      const index = new VectorIndex(smallHandle.db, 'sqlite', dimensions, knowledgeVectorLayout, {
        databaseFile: small,
        buildFrom: 500,
      });
      await index.ensure();
      await smallHandle.db.transaction().execute((transaction) => index.insert(rows.slice(0, 100), transaction));
      assert.equal((await index.search([rows[18]!.partition], rows[18]!.vector, 3))[0]!.key, rows[18]!.key);
      await index.graph!.settled();
      assert.equal(index.graph!.ready, false);
      await smallHandle.db.transaction().execute((transaction) => index.insert(rows.slice(100, 600), transaction));
      await index.search([rows[18]!.partition], rows[18]!.vector, 3);
      await index.graph!.settled();
      assert.equal(index.graph!.size, 600);
      await index.close();
    } finally {
      await smallHandle.close();
    }
  });
});

import { sql, type Kysely } from 'kysely';
import type { Database, Dialect, Executor } from '../schema.js';
import { VectorGraph, type VectorGraphOptions } from './vector-graph.js';

/**
 * A vector index, one table per vector width (`<prefix>_<dimensions>`), every
 * search confined to one or more partitions (a knowledge base, a
 * conversation). SQLite: a sqlite-vec `vec0` table with the partition as its
 * partition key, keyed by an integer rowid, searched exactly (brute force,
 * cosine distance). PostgreSQL: a pgvector table, keyed as its layout says,
 * searched through an HNSW index (cosine) or exactly within a b-tree-indexed
 * partition. Created at start-up, not by a migration: its width is the
 * configured model's, and only deployments with embeddings need pgvector.
 *
 * On PostgreSQL pgvector's type, operator and operator class are named with
 * the schema the extension lives in, so the index works whatever the
 * connection's search_path (an extension installed in `public` or
 * `extensions` while agentd uses a schema of its own).
 */
export class MissingVectorExtensionError extends Error {
  constructor() {
    super(
      'Embeddings are configured (AGENTD_EMBEDDINGS_PROVIDER) but the PostgreSQL extension "vector" (pgvector) is ' +
        'not installed on the database server: install it (Debian and Ubuntu with the PostgreSQL apt repository: ' +
        'postgresql-<version>-pgvector; Docker: the pgvector/pgvector image; see docs/knowledge.md) or unset ' +
        'AGENTD_EMBEDDINGS_PROVIDER for full-text retrieval only.',
    );
    this.name = 'MissingVectorExtensionError';
  }
}

/** What differs between the indexes: the table, the partition column, and on PostgreSQL the key and the search. */
export interface VectorIndexLayout {
  /** Tables are named `<prefix>_<dimensions>`. */
  prefix: string;
  /** The column a search is confined to: vec0's partition key on SQLite. */
  partition: string;
  postgres: {
    /** The key column (SQLite always keys by rowid). */
    key: string;
    /** Its type and constraints, after the name: `bigint primary key`, or a text key referencing its row. */
    keyDefinition: string;
    keyType: 'bigint' | 'text';
    /**
     * `hnsw`: one approximate index over every partition (large partitions, searched a few at once), the
     * partitions searched compared exactly while they hold at most `exactSearchRows` rows, whose floor is
     * `exactUpTo` (default `exactSearchFloor`);
     * `exact`: a b-tree on the partition, whose vectors are all compared (small partitions, where HNSW's
     * filtering after the index scan would return fewer matches than asked).
     */
    search: 'hnsw' | 'exact';
    exactUpTo?: number;
  };
}

/**
 * Up to how many rows the partitions searched are compared exactly rather than through HNSW, for an index of
 * `indexRows` (computed the same way in SQL by `VectorIndex.search`). Exact costs 2–3 µs per row of those
 * partitions on 2 busy cores (5,000 rows: ~10–15 ms); an iterative HNSW scan 15–30 µs per row it visits, and it
 * visits about k / share rows (a base holding 0.5 % of the index: ~2,000), so small bases are cheaper (and
 * exact) compared directly; bench/README.md, "knowledge-scale", has the figures. Growing with the index (a
 * thousandth of it) keeps every base searched by HNSW at least 0.1 % of it, so the iterative scan finds k of
 * its rows within hnsw.max_scan_tuples (20,000).
 */
export const exactSearchFloor = 5000;
const exactSearchShare = 1000;
export function exactSearchRows(indexRows: number, floor = exactSearchFloor): number {
  return Math.max(floor, Math.ceil(indexRows / exactSearchShare));
}

/** The first pgvector with iterative index scans, which the HNSW search relies on. */
const minimumVersion = [0, 8, 0];

export class OutdatedVectorExtensionError extends Error {
  constructor(version: string) {
    super(
      `The PostgreSQL extension "vector" (pgvector) is at version ${version}; agentd needs 0.8.0 or later ` +
        '(iterative index scans): install a newer pgvector on the database server, then run ' +
        '`ALTER EXTENSION vector UPDATE;` in the database (no reindex needed; see docs/knowledge.md).',
    );
    this.name = 'OutdatedVectorExtensionError';
  }
}

function outdated(version: string): boolean {
  const parts = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let index = 0; index < minimumVersion.length; index += 1) {
    const difference = (parts[index] ?? 0) - minimumVersion[index]!;
    if (difference !== 0) return difference < 0;
  }
  return false;
}

export interface VectorMatch<Key> {
  key: Key;
  /** Cosine distance: 0 for the same direction, 2 for opposite ones. */
  distance: number;
}

/** Cosine distance is scale-free, but unit vectors keep distances comparable between models' outputs. */
function unit(vector: readonly number[]): number[] {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return norm === 0 ? [...vector] : vector.map((value) => value / norm);
}

/** Several instances starting at once create the extension and tables once, under one lock (older versions take it too). */
const creationLock = 'agentd knowledge vectors';

/**
 * How new HNSW indexes on PostgreSQL are built: `m` 16 (pgvector's default)
 * and `ef_construction` 128 (its default is 64). At 1,000,000 clustered rows
 * the default graph missed part of each query's true top 10 however wide the
 * search (recall@10 0.892 at ef_search 400, 0.923 at 800; bench/README.md,
 * knowledge-scale); a graph built wider costs about twice the build time and
 * insert time. An index built before keeps the options it was built with.
 */
export const hnswBuildOptions = { m: 16, efConstruction: 128 } as const;

/**
 * pgvector's `hnsw.ef_search`, the candidates an HNSW scan keeps, by the rows of the index: its default (40)
 * finds 0.99 of the true top 10 at 100,000 rows of clustered data but 0.745 at 1,000,000, since the larger graph
 * needs a wider search for the same recall (bench/README.md, "knowledge-scale", has the sweep). Never fewer
 * than the rows asked for; at most pgvector's bound (1,000). Computed in SQL from the table's `reltuples`.
 */
export const searchBreadthTiers: ReadonlyArray<{ upTo: number; breadth: number }> = [
  { upTo: 50_000, breadth: 40 },
  { upTo: 200_000, breadth: 100 },
  { upTo: 500_000, breadth: 200 },
  { upTo: Number.POSITIVE_INFINITY, breadth: 400 },
];
/** `hnsw.ef_search` as SQL text, for an index of `rows` (a column name) rows and `limit` results (constants only). */
const searchBreadthSql = (rows: string, limit: number) => {
  const tiers = searchBreadthTiers.map(({ upTo, breadth }) =>
    Number.isFinite(upTo) ? `when ${rows} <= ${upTo} then ${breadth}` : `else ${breadth}`,
  );
  return sql.raw(`least(1000, greatest(${Math.trunc(limit)}, case ${tiers.join(' ')} end))::text`);
};

export class VectorIndex<Key extends number | string = number> {
  readonly table: string;
  /** SQLite: the approximate index over the table's rows (vector-graph.ts), when asked for; null otherwise. */
  readonly graph: VectorGraph | null;
  /** PostgreSQL: the schema of pgvector's type and operators, read once. */
  #extensionSchema: Promise<string> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    readonly dimensions: number,
    private readonly layout: VectorIndexLayout,
    /** SQLite with integer keys: an HNSW graph for large tables, its rows compared exactly below its bounds. */
    graph: VectorGraphOptions | null = null,
  ) {
    this.table = `${layout.prefix}_${dimensions}`;
    this.graph =
      graph !== null && dialect === 'sqlite'
        ? new VectorGraph(db, this.table, layout.partition, dimensions, graph)
        : null;
  }

  async #readExtensionSchema(executor: Executor): Promise<string> {
    const { rows } = await sql<{ schema: string; version: string }>`
      select namespace.nspname as schema, extension.extversion as version from pg_extension as extension
      join pg_namespace as namespace on namespace.oid = extension.extnamespace
      where extension.extname = 'vector'`.execute(executor);
    if (!rows[0]) throw new MissingVectorExtensionError();
    if (outdated(rows[0].version)) throw new OutdatedVectorExtensionError(rows[0].version);
    return rows[0].schema;
  }

  /** pgvector's schema; null on SQLite. A failed read is tried again by the next call. */
  async #schema(): Promise<string | null> {
    if (this.dialect === 'sqlite') return null;
    this.#extensionSchema ??= this.#readExtensionSchema(this.db).catch((error: unknown) => {
      this.#extensionSchema = null;
      throw error;
    });
    return this.#extensionSchema;
  }

  #literal(vector: readonly number[], schema: string | null) {
    const normalized = unit(vector);
    return schema === null
      ? sql`${Buffer.from(new Float32Array(normalized).buffer)}`
      : sql`${`[${normalized.join(',')}]`}::${sql.id(schema, 'vector')}`;
  }

  /** pgvector's cosine distance operator, named with its schema. */
  #cosineDistance(schema: string) {
    return sql`operator(${sql.id(schema)}.<=>)`;
  }

  get #keyColumn() {
    return sql.raw(this.dialect === 'sqlite' ? 'rowid' : this.layout.postgres.key);
  }

  /** vec0 wants an integer rowid: better-sqlite3 binds a bigint as one. */
  #bound(key: Key) {
    return this.dialect === 'sqlite' ? BigInt(key) : key;
  }

  #keyOf(value: unknown): Key {
    return (this.dialect === 'sqlite' || this.layout.postgres.keyType === 'bigint' ? Number(value) : value) as Key;
  }

  /** Creates the table (and on PostgreSQL the extension and the indexes) when missing. */
  async ensure(): Promise<void> {
    const table = sql.table(this.table);
    const partition = sql.raw(this.layout.partition);
    const dimensions = sql.raw(String(this.dimensions));
    if (this.dialect === 'sqlite') {
      await sql`create virtual table if not exists ${table} using vec0(
        ${partition} text partition key,
        embedding float[${dimensions}] distance_metric=cosine
      )`.execute(this.db);
      await this.graph?.open();
      return;
    }
    const available = await sql<{ present: number }>`
      select 1 as present from pg_available_extensions where name = 'vector'`.execute(this.db);
    if (available.rows.length === 0) throw new MissingVectorExtensionError();
    const { key, keyDefinition, search } = this.layout.postgres;
    const schema = await this.db.transaction().execute(async (transaction) => {
      await sql`select pg_advisory_xact_lock(hashtext(${creationLock}))`.execute(transaction);
      await sql`create extension if not exists vector`.execute(transaction);
      const schema = await this.#readExtensionSchema(transaction);
      await sql`create table if not exists ${table} (
        ${sql.raw(key)} ${sql.raw(keyDefinition)},
        ${partition} text not null,
        embedding ${sql.id(schema, 'vector')}(${dimensions}) not null
      )`.execute(transaction);
      if (search === 'hnsw') {
        // HNSW on cosine distance, built wider than pgvector's default (ef_construction 64): see
        // hnswBuildOptions. pgvector indexes vectors of up to 2,000 dimensions this way.
        await sql`create index if not exists ${sql.raw(`${this.table}_hnsw_idx`)} on ${table}
          using hnsw (embedding ${sql.id(schema, 'vector_cosine_ops')})
          with (m = ${sql.raw(String(hnswBuildOptions.m))}, ef_construction = ${sql.raw(String(hnswBuildOptions.efConstruction))})`.execute(
          transaction,
        );
      }
      // Every layout has the b-tree on the partition: `exact` searches through it, and with `hnsw` the planner
      // reads a small partition through it (comparing its few vectors exactly) rather than walking the graph.
      await sql`create index if not exists ${sql.raw(`${this.table}_partition_idx`)} on ${table}
        (${partition})`.execute(transaction);
      return schema;
    });
    this.#extensionSchema = Promise.resolve(schema);
  }

  /** Saves the graph, if any (its file is rebuilt or caught up from the rows when this is not reached). */
  async close(): Promise<void> {
    await this.graph?.close();
  }

  /** Adds vectors; on PostgreSQL a key already present keeps its vector (two instances embedding the same row). */
  async insert(
    rows: ReadonlyArray<{ key: Key; partition: string; vector: readonly number[] }>,
    executor: Executor,
  ): Promise<void> {
    if (rows.length === 0) return;
    const table = sql.table(this.table);
    const partition = sql.raw(this.layout.partition);
    const schema = await this.#schema();
    const conflict = schema === null ? sql`` : sql`on conflict do nothing`;
    for (const row of rows) {
      await sql`insert into ${table} (${this.#keyColumn}, ${partition}, embedding)
        values (${this.#bound(row.key)}, ${row.partition}, ${this.#literal(row.vector, schema)}) ${conflict}`.execute(
        executor,
      );
    }
    await this.graph?.logInserted(
      rows.map((row) => ({ key: Number(row.key), partition: row.partition })),
      executor,
    );
  }

  async delete(keys: readonly Key[], executor: Executor): Promise<void> {
    const table = sql.table(this.table);
    // One key at a time on SQLite: vec0 answers `rowid = ?` from its index, where `in (…)` may scan.
    if (this.dialect === 'sqlite') {
      for (const key of keys) await sql`delete from ${table} where rowid = ${this.#bound(key)}`.execute(executor);
      await this.graph?.logDeleted(keys.map(Number), executor);
      return;
    }
    if (keys.length > 0) await sql`delete from ${table} where ${this.#keyColumn} = any(${[...keys]})`.execute(executor);
  }

  /**
   * The `limit` nearest rows of these partitions, nearest first. `executor`: a transaction to search in (its
   * settings apply), or the database.
   */
  async search(
    partitions: readonly string[],
    vector: readonly number[],
    limit: number,
    executor: Executor = this.db,
  ): Promise<VectorMatch<Key>[]> {
    if (partitions.length === 0 || limit <= 0) return [];
    const table = sql.table(this.table);
    const partition = sql.raw(this.layout.partition);
    const schema = await this.#schema();
    if (schema === null) {
      if (this.graph !== null) {
        const found = await this.graph.search(partitions, new Float32Array(unit(vector)), limit, executor);
        if (found !== null) return found.map((match) => ({ key: this.#keyOf(match.key), distance: match.distance }));
      }
      const matches: VectorMatch<Key>[] = [];
      // The partition key narrows the scan to one partition; partitions are searched one by one and merged.
      for (const value of partitions) {
        const { rows } = await sql<{ rowid: number; distance: number }>`
          select rowid, distance from ${table}
          where embedding match ${this.#literal(vector, null)} and k = ${limit} and ${partition} = ${value}`.execute(
          executor,
        );
        for (const row of rows) matches.push({ key: this.#keyOf(row.rowid), distance: Number(row.distance) });
      }
      return matches.sort((a, b) => a.distance - b.distance).slice(0, limit);
    }
    const scored = sql`
      select ${this.#keyColumn} as key, embedding ${this.#cosineDistance(schema)} ${this.#literal(vector, schema)} as distance
      from ${table} where ${partition} = any(${[...partitions]})`;
    const nearestRows = (exact: boolean) =>
      exact
        ? sql<{ key: unknown; distance: number }>`select key, distance from (${scored}) as scored
            order by distance + 0 limit ${limit}`
        : sql<{ key: unknown; distance: number }>`${scored} order by distance limit ${limit}`;
    const toMatch = (row: { key: unknown; distance: number }) => ({
      key: this.#keyOf(row.key),
      distance: Number(row.distance),
    });
    if (this.layout.postgres.search === 'exact') return (await nearestRows(false).execute(executor)).rows.map(toMatch);
    // HNSW filters after its scan: with the default scan, a base holding 1 % of the index would get about 0.4 of
    // the 40 candidates, not 10. Small partitions are compared exactly (ordering by `distance + 0`, which no HNSW
    // index can serve, so the planner reads them through the b-tree); larger ones through an iterative scan
    // (pgvector 0.8), which walks on until `limit` rows of these partitions are found, relaxed order letting it
    // keep nearer candidates found late, re-sorted here. Settings are local to the transaction. bench/README.md,
    // "knowledge-scale", measured this against the planner's own choice and per-base partial indexes.
    const searchIn = async (transaction: Executor) => {
      // One statement: the settings, and the rows of these partitions counted up to the bound past which HNSW is
      // used (the count stops there, reading only the b-tree: a large base costs a short walk of its entries,
      // not a count of its rows). Round trips are most of a search's cost on a busy machine.
      const floor = this.layout.postgres.exactUpTo ?? exactSearchFloor;
      const { rows: counted } = await sql<{ rows: string; bound: string }>`
        with bound as (
          select greatest(${floor}, ceil(greatest(reltuples, 0) / ${exactSearchShare}))::bigint as rows,
            greatest(reltuples, 0) as total
          from pg_class where oid = to_regclass(${this.table})
        )
        select set_config('hnsw.iterative_scan', 'relaxed_order', true),
          set_config('hnsw.ef_search', (select ${searchBreadthSql('total', limit)} from bound), true),
          (select rows from bound) as bound,
          (select count(*) from (select ${partition} from ${table} where ${partition} = any(${[...partitions]})
            limit (select rows + 1 from bound)) as bounded) as rows`.execute(transaction);
      const exactUpTo = Number(counted[0]!.bound);
      if (Number(counted[0]!.rows) <= exactUpTo)
        return (await nearestRows(true).execute(transaction)).rows.map(toMatch);
      // `+ 0`: PostgreSQL 17 would otherwise trust the CTE's (relaxed) order and not sort again.
      const { rows } = await sql<{ key: unknown; distance: number }>`
        with nearest as materialized (${nearestRows(false)})
        select key, distance from nearest order by distance + 0`.execute(transaction);
      return rows.map(toMatch);
    };
    return executor.isTransaction ? searchIn(executor) : executor.transaction().execute(searchIn);
  }
}

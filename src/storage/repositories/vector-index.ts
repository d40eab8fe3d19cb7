import { sql, type Kysely } from 'kysely';
import type { Database, Dialect, Executor } from '../schema.js';

/**
 * A vector index, one table per vector width (`<prefix>_<dimensions>`), every
 * search confined to one or more partitions (a knowledge base, a
 * conversation). SQLite: a sqlite-vec `vec0` table with the partition as its
 * partition key, keyed by an integer rowid, searched exactly (brute force,
 * cosine distance). PostgreSQL: a pgvector table, keyed as its layout says,
 * searched through an HNSW index (cosine) or exactly within a b-tree-indexed
 * partition. Created at start-up, not by a migration: its width is the
 * configured model's, and only deployments with embeddings need pgvector.
 */
export class MissingVectorExtensionError extends Error {
  constructor() {
    super(
      'Embeddings are configured (AGENTD_EMBEDDINGS_PROVIDER) but the PostgreSQL extension "vector" (pgvector) is ' +
        'not installed on the database server: install it (Debian: postgresql-<version>-pgvector) or unset ' +
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
     * `hnsw`: one approximate index over every partition (large partitions, searched a few at once);
     * `exact`: a b-tree on the partition, whose vectors are all compared (small partitions, where HNSW's
     * filtering after the index scan would return fewer matches than asked).
     */
    search: 'hnsw' | 'exact';
  };
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

export class VectorIndex<Key extends number | string = number> {
  readonly table: string;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    readonly dimensions: number,
    private readonly layout: VectorIndexLayout,
  ) {
    this.table = `${layout.prefix}_${dimensions}`;
  }

  #literal(vector: readonly number[]) {
    const normalized = unit(vector);
    return this.dialect === 'sqlite'
      ? sql`${Buffer.from(new Float32Array(normalized).buffer)}`
      : sql`${`[${normalized.join(',')}]`}::vector`;
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

  /** Creates the table (and on PostgreSQL the extension and the index) when missing. */
  async ensure(): Promise<void> {
    const table = sql.table(this.table);
    const partition = sql.raw(this.layout.partition);
    const dimensions = sql.raw(String(this.dimensions));
    if (this.dialect === 'sqlite') {
      await sql`create virtual table if not exists ${table} using vec0(
        ${partition} text partition key,
        embedding float[${dimensions}] distance_metric=cosine
      )`.execute(this.db);
      return;
    }
    const available = await sql<{ present: number }>`
      select 1 as present from pg_available_extensions where name = 'vector'`.execute(this.db);
    if (available.rows.length === 0) throw new MissingVectorExtensionError();
    const { key, keyDefinition, search } = this.layout.postgres;
    await this.db.transaction().execute(async (transaction) => {
      await sql`select pg_advisory_xact_lock(hashtext(${creationLock}))`.execute(transaction);
      await sql`create extension if not exists vector`.execute(transaction);
      await sql`create table if not exists ${table} (
        ${sql.raw(key)} ${sql.raw(keyDefinition)},
        ${partition} text not null,
        embedding vector(${dimensions}) not null
      )`.execute(transaction);
      if (search === 'hnsw') {
        // HNSW on cosine distance; pgvector indexes vectors of up to 2,000 dimensions this way.
        await sql`create index if not exists ${sql.raw(`${this.table}_hnsw_idx`)} on ${table}
          using hnsw (embedding vector_cosine_ops)`.execute(transaction);
      } else {
        await sql`create index if not exists ${sql.raw(`${this.table}_partition_idx`)} on ${table}
          (${partition})`.execute(transaction);
      }
    });
  }

  /** Adds vectors; on PostgreSQL a key already present keeps its vector (two instances embedding the same row). */
  async insert(
    rows: ReadonlyArray<{ key: Key; partition: string; vector: readonly number[] }>,
    executor: Executor,
  ): Promise<void> {
    const table = sql.table(this.table);
    const partition = sql.raw(this.layout.partition);
    const conflict = this.dialect === 'sqlite' ? sql`` : sql`on conflict do nothing`;
    for (const row of rows) {
      await sql`insert into ${table} (${this.#keyColumn}, ${partition}, embedding)
        values (${this.#bound(row.key)}, ${row.partition}, ${this.#literal(row.vector)}) ${conflict}`.execute(executor);
    }
  }

  async delete(keys: readonly Key[], executor: Executor): Promise<void> {
    const table = sql.table(this.table);
    // One key at a time on SQLite: vec0 answers `rowid = ?` from its index, where `in (…)` may scan.
    if (this.dialect === 'sqlite') {
      for (const key of keys) await sql`delete from ${table} where rowid = ${this.#bound(key)}`.execute(executor);
      return;
    }
    if (keys.length > 0) await sql`delete from ${table} where ${this.#keyColumn} = any(${[...keys]})`.execute(executor);
  }

  /** The `limit` nearest rows of these partitions, nearest first. */
  async search(partitions: readonly string[], vector: readonly number[], limit: number): Promise<VectorMatch<Key>[]> {
    if (partitions.length === 0) return [];
    const table = sql.table(this.table);
    const partition = sql.raw(this.layout.partition);
    if (this.dialect === 'sqlite') {
      const matches: VectorMatch<Key>[] = [];
      // The partition key narrows the scan to one partition; partitions are searched one by one and merged.
      for (const value of partitions) {
        const { rows } = await sql<{ rowid: number; distance: number }>`
          select rowid, distance from ${table}
          where embedding match ${this.#literal(vector)} and k = ${limit} and ${partition} = ${value}`.execute(this.db);
        for (const row of rows) matches.push({ key: this.#keyOf(row.rowid), distance: Number(row.distance) });
      }
      return matches.sort((a, b) => a.distance - b.distance).slice(0, limit);
    }
    const { rows } = await sql<{ key: unknown; distance: number }>`
      select ${this.#keyColumn} as key, embedding <=> ${this.#literal(vector)} as distance from ${table}
      where ${partition} = any(${[...partitions]})
      order by distance limit ${limit}`.execute(this.db);
    return rows.map((row) => ({ key: this.#keyOf(row.key), distance: Number(row.distance) }));
  }
}

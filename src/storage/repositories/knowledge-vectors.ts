import { sql, type Kysely } from 'kysely';
import type { Database, Dialect, Executor } from '../schema.js';

/**
 * The vector index of knowledge-base chunks, one table per vector width
 * (`knowledge_vectors_<dimensions>`), keyed by the chunk's `search_id`.
 * SQLite: a sqlite-vec `vec0` table partitioned by knowledge base, searched
 * exactly (brute force, cosine distance). PostgreSQL: pgvector with an HNSW
 * index (cosine). Created at start-up, not by a migration: its width is the
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

export interface VectorMatch {
  searchId: number;
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

export class KnowledgeVectorIndex {
  readonly table: string;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    readonly dimensions: number,
  ) {
    this.table = `knowledge_vectors_${dimensions}`;
  }

  #literal(vector: readonly number[]) {
    const normalized = unit(vector);
    return this.dialect === 'sqlite'
      ? sql`${Buffer.from(new Float32Array(normalized).buffer)}`
      : sql`${`[${normalized.join(',')}]`}::vector`;
  }

  /** Creates the table (and on PostgreSQL the extension and the HNSW index) when missing. */
  async ensure(): Promise<void> {
    const table = sql.table(this.table);
    if (this.dialect === 'sqlite') {
      await sql`create virtual table if not exists ${table} using vec0(
        knowledge_base_id text partition key,
        embedding float[${sql.raw(String(this.dimensions))}] distance_metric=cosine
      )`.execute(this.db);
      return;
    }
    const available = await sql<{ present: number }>`
      select 1 as present from pg_available_extensions where name = 'vector'`.execute(this.db);
    if (available.rows.length === 0) throw new MissingVectorExtensionError();
    // Several instances starting at once: the extension and the table are created once, under one lock.
    await this.db.transaction().execute(async (transaction) => {
      await sql`select pg_advisory_xact_lock(hashtext('agentd knowledge vectors'))`.execute(transaction);
      await sql`create extension if not exists vector`.execute(transaction);
      await sql`create table if not exists ${table} (
        search_id bigint primary key,
        knowledge_base_id text not null,
        embedding vector(${sql.raw(String(this.dimensions))}) not null
      )`.execute(transaction);
      // HNSW on cosine distance; pgvector indexes vectors of up to 2,000 dimensions this way.
      await sql`create index if not exists ${sql.raw(`${this.table}_hnsw_idx`)} on ${table}
        using hnsw (embedding vector_cosine_ops)`.execute(transaction);
    });
  }

  async insert(
    rows: ReadonlyArray<{ searchId: number; knowledgeBaseId: string; vector: readonly number[] }>,
    executor: Executor,
  ): Promise<void> {
    const table = sql.table(this.table);
    for (const row of rows) {
      // vec0 wants an integer rowid: better-sqlite3 binds a bigint as one.
      const key = this.dialect === 'sqlite' ? BigInt(row.searchId) : row.searchId;
      await sql`insert into ${table} (${sql.raw(this.dialect === 'sqlite' ? 'rowid' : 'search_id')}, knowledge_base_id, embedding)
        values (${key}, ${row.knowledgeBaseId}, ${this.#literal(row.vector)})`.execute(executor);
    }
  }

  async delete(searchIds: readonly number[], executor: Executor): Promise<void> {
    const table = sql.table(this.table);
    const key = sql.raw(this.dialect === 'sqlite' ? 'rowid' : 'search_id');
    // One id at a time on SQLite: vec0 answers `rowid = ?` from its index, where `in (…)` may scan.
    if (this.dialect === 'sqlite') {
      for (const id of searchIds) await sql`delete from ${table} where ${key} = ${BigInt(id)}`.execute(executor);
      return;
    }
    if (searchIds.length > 0) await sql`delete from ${table} where ${key} = any(${[...searchIds]})`.execute(executor);
  }

  /** The `limit` nearest chunks of these bases, nearest first. */
  async search(knowledgeBaseIds: readonly string[], vector: readonly number[], limit: number): Promise<VectorMatch[]> {
    if (knowledgeBaseIds.length === 0) return [];
    const table = sql.table(this.table);
    if (this.dialect === 'sqlite') {
      const matches: VectorMatch[] = [];
      // The partition key narrows the scan to one base; bases are searched one by one and merged.
      for (const knowledgeBaseId of knowledgeBaseIds) {
        const { rows } = await sql<{ rowid: number; distance: number }>`
          select rowid, distance from ${table}
          where embedding match ${this.#literal(vector)} and k = ${limit} and knowledge_base_id = ${knowledgeBaseId}`.execute(
          this.db,
        );
        for (const row of rows) matches.push({ searchId: Number(row.rowid), distance: Number(row.distance) });
      }
      return matches.sort((a, b) => a.distance - b.distance).slice(0, limit);
    }
    const { rows } = await sql<{ search_id: string; distance: number }>`
      select search_id, embedding <=> ${this.#literal(vector)} as distance from ${table}
      where knowledge_base_id = any(${[...knowledgeBaseIds]})
      order by distance limit ${limit}`.execute(this.db);
    return rows.map((row) => ({ searchId: Number(row.search_id), distance: Number(row.distance) }));
  }
}

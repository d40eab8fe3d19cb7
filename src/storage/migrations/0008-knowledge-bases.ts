import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * Knowledge bases: the bases of an account, their documents (each one also an
 * ingestion job: `status` processing with a lease while an instance works on
 * it), the documents' original bytes (kept for retries), their chunks indexed
 * for full text (FTS5 on SQLite, a tsvector with GIN on PostgreSQL, as for
 * inline knowledge in 0002), and which agents use which bases.
 *
 * The vector index is not created here: its width is the configured embedding
 * model's, and on PostgreSQL it needs the pgvector extension, which only
 * deployments with embeddings must have (see conversation/vector-index.ts).
 */
export function knowledgeBasesMigration(dialect: Dialect): Migration {
  // Byte order on both dialects, as in 0001: ids sort the same everywhere, so cursors agree.
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('knowledge_bases')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('description', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('knowledge_bases_account_idx')
        .on('knowledge_bases')
        .columns(['account_id', 'id'])
        .execute();

      await db.schema
        .createTable('knowledge_documents')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('knowledge_base_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('title', 'text', (column) => column.notNull())
        .addColumn('content_type', 'text', (column) => column.notNull())
        .addColumn('source', 'text', (column) => column.notNull())
        .addColumn('content_hash', 'text', (column) => column.notNull())
        .addColumn('size_bytes', 'integer', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('status_reason', 'text')
        .addColumn('chunk_count', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      // The same bytes twice in one base are one document (re-uploads are no-ops).
      await db.schema
        .createIndex('knowledge_documents_hash_idx')
        .on('knowledge_documents')
        .columns(['knowledge_base_id', 'content_hash'])
        .unique()
        .execute();
      // The page order of a base's documents.
      await db.schema
        .createIndex('knowledge_documents_base_idx')
        .on('knowledge_documents')
        .columns(['knowledge_base_id', 'id'])
        .execute();
      // Where instances look for work: documents still processing whose lease is free or expired.
      await db.schema
        .createIndex('knowledge_documents_jobs_idx')
        .on('knowledge_documents')
        .columns(['status', 'lease_expires_at'])
        .execute();

      await db.schema
        .createTable('knowledge_document_bodies')
        .addColumn('document_id', 'text', (column) => column.primaryKey())
        .addColumn('body', dialect === 'postgres' ? 'bytea' : 'blob', (column) => column.notNull())
        .execute();

      if (dialect === 'sqlite') {
        await sql`create table knowledge_chunks (
          search_id integer primary key,
          id text not null,
          knowledge_base_id text not null,
          document_id text not null,
          position integer not null,
          title text not null,
          heading text,
          content text not null,
          token_count integer not null
        )`.execute(db);
        // Porter stemming (English), as for inline knowledge: "fees" finds "fee".
        await sql`create virtual table knowledge_chunk_search using fts5(
          knowledge_base_id, title, heading, content,
          content = 'knowledge_chunks', content_rowid = 'search_id',
          tokenize = 'porter unicode61 remove_diacritics 2'
        )`.execute(db);
        await sql`create trigger knowledge_chunks_indexed after insert on knowledge_chunks begin
          insert into knowledge_chunk_search (rowid, knowledge_base_id, title, heading, content)
          values (new.search_id, new.knowledge_base_id, new.title, coalesce(new.heading, ''), new.content);
        end`.execute(db);
        await sql`create trigger knowledge_chunks_unindexed after delete on knowledge_chunks begin
          insert into knowledge_chunk_search (knowledge_chunk_search, rowid, knowledge_base_id, title, heading, content)
          values ('delete', old.search_id, old.knowledge_base_id, old.title, coalesce(old.heading, ''), old.content);
        end`.execute(db);
      } else {
        await sql`create table knowledge_chunks (
          search_id bigint generated always as identity primary key,
          id text not null,
          knowledge_base_id text not null,
          document_id text not null,
          position integer not null,
          title text not null,
          heading text,
          content text not null,
          token_count integer not null,
          search tsvector generated always as (
            setweight(to_tsvector('english', title || ' ' || coalesce(heading, '')), 'A') ||
            setweight(to_tsvector('english', content), 'B')
          ) stored
        )`.execute(db);
        await sql`create index knowledge_chunks_search_idx on knowledge_chunks using gin (search)`.execute(db);
        await sql`create index knowledge_chunks_base_idx on knowledge_chunks (knowledge_base_id)`.execute(db);
      }
      await db.schema.createIndex('knowledge_chunks_id_idx').on('knowledge_chunks').column('id').unique().execute();
      // A document's chunks, in order; unique, so a chunk can never be stored twice.
      await db.schema
        .createIndex('knowledge_chunks_document_idx')
        .on('knowledge_chunks')
        .columns(['document_id', 'position'])
        .unique()
        .execute();

      await db.schema
        .createTable('agent_knowledge_bases')
        .addColumn('agent_id', 'text', (column) => column.notNull())
        .addColumn('knowledge_base_id', 'text', (column) => column.notNull())
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('agent_knowledge_bases_pk', ['agent_id', 'knowledge_base_id'])
        .execute();
      await db.schema
        .createIndex('agent_knowledge_bases_base_idx')
        .on('agent_knowledge_bases')
        .column('knowledge_base_id')
        .execute();
    },
  };
}

import { sql } from 'kysely';
import type { Database, Dialect, Executor, KnowledgeDocumentsTable } from '../schema.js';
import { inTransaction } from '../schema.js';
import type { VectorIndex, VectorIndexLayout } from './vector-index.js';

export interface KnowledgeBaseRecord {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export type DocumentStatus = KnowledgeDocumentsTable['status'];

export interface DocumentSource {
  kind: 'text' | 'url' | 'upload';
  url?: string;
  filename?: string;
}

export interface KnowledgeDocumentRecord {
  id: string;
  accountId: string;
  knowledgeBaseId: string;
  title: string;
  contentType: string;
  source: DocumentSource;
  contentHash: string;
  sizeBytes: number;
  status: DocumentStatus;
  statusReason: string | null;
  chunkCount: number;
  attempts: number;
  createdAt: string;
  updatedAt: string;
}

export interface StoredChunk {
  searchId: number;
  id: string;
  knowledgeBaseId: string;
  documentId: string;
  position: number;
  title: string;
  heading: string | null;
  content: string;
  tokenCount: number;
}

export interface NewChunk {
  id: string;
  position: number;
  heading: string | null;
  content: string;
  tokenCount: number;
  /** Present when embeddings are configured. */
  vector?: readonly number[];
}

type BaseRow = Database['knowledge_bases'];
type DocumentRow = Database['knowledge_documents'];
type ChunkRow = Database['knowledge_chunks'];

function baseOf(row: BaseRow): KnowledgeBaseRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function documentOf(row: DocumentRow): KnowledgeDocumentRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    knowledgeBaseId: row.knowledge_base_id,
    title: row.title,
    contentType: row.content_type,
    source: JSON.parse(row.source) as DocumentSource,
    contentHash: row.content_hash,
    sizeBytes: Number(row.size_bytes),
    status: row.status,
    statusReason: row.status_reason,
    chunkCount: Number(row.chunk_count),
    attempts: Number(row.attempts),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function chunkOf(row: Omit<ChunkRow, 'search_id'> & { search_id: number | string }): StoredChunk {
  return {
    searchId: Number(row.search_id),
    id: row.id,
    knowledgeBaseId: row.knowledge_base_id,
    documentId: row.document_id,
    position: Number(row.position),
    title: row.title,
    heading: row.heading,
    content: row.content,
    tokenCount: Number(row.token_count),
  };
}

/**
 * The vector index of chunks (`knowledge_vectors_<dimensions>`), keyed by the
 * chunk's `search_id`, partitioned by knowledge base; on PostgreSQL one HNSW
 * index over every base, as a prompt searches several bases of any size.
 */
export const knowledgeVectorLayout: VectorIndexLayout = {
  prefix: 'knowledge_vectors',
  partition: 'knowledge_base_id',
  postgres: { key: 'search_id', keyDefinition: 'bigint primary key', keyType: 'bigint', search: 'hnsw' },
};

/** Chunk ids per statement: well under SQLite's and PostgreSQL's bound on parameters. */
const idsPerStatement = 500;

/**
 * Knowledge bases, their documents (which double as ingestion jobs), chunks,
 * and the attachment of bases to agents. Every read that a client reaches
 * filters by account; the job methods work across accounts, as the
 * ingestion worker serves them all.
 */
export class KnowledgeBaseRepository {
  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
    /** Null when no embedding model is configured: full-text retrieval only. */
    readonly vectors: VectorIndex | null,
  ) {}

  async insert(record: KnowledgeBaseRecord, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('knowledge_bases')
      .values({
        id: record.id,
        account_id: record.accountId,
        name: record.name,
        description: record.description,
        created_at: record.createdAt,
        updated_at: record.updatedAt,
      })
      .execute();
  }

  async find(accountId: string, id: string, executor: Executor = this.db): Promise<KnowledgeBaseRecord | null> {
    const row = await executor
      .selectFrom('knowledge_bases')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? baseOf(row) : null;
  }

  /** The ids among `ids` that are bases of this account. */
  async existing(accountId: string, ids: readonly string[], executor: Executor = this.db): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await executor
      .selectFrom('knowledge_bases')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  /** A page, newest first: after `beforeId` (keyset) or at `offset`. */
  async page(
    accountId: string,
    query: { limit: number; offset?: number; beforeId?: string },
  ): Promise<{ rows: KnowledgeBaseRecord[]; total: number }> {
    let select = this.db.selectFrom('knowledge_bases').selectAll().where('account_id', '=', accountId);
    if (query.beforeId !== undefined) select = select.where('id', '<', query.beforeId);
    const [rows, count] = await Promise.all([
      select
        .orderBy('id', 'desc')
        .limit(query.limit)
        .offset(query.beforeId === undefined ? (query.offset ?? 0) : 0)
        .execute(),
      this.db
        .selectFrom('knowledge_bases')
        .select((expression) => expression.fn.countAll<number>().as('total'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(baseOf), total: Number(count.total) };
  }

  async update(record: KnowledgeBaseRecord, executor: Executor = this.db): Promise<void> {
    await executor
      .updateTable('knowledge_bases')
      .set({ name: record.name, description: record.description, updated_at: record.updatedAt })
      .where('account_id', '=', record.accountId)
      .where('id', '=', record.id)
      .execute();
  }

  /** Removes a base with its documents, chunks, vectors and attachments; returns the agents it was attached to. */
  async delete(accountId: string, id: string, executor: Executor = this.db): Promise<string[]> {
    return inTransaction(executor, async (transaction) => {
      const attached = await transaction
        .deleteFrom('agent_knowledge_bases')
        .where('knowledge_base_id', '=', id)
        .returning('agent_id')
        .execute();
      const documents = await transaction
        .selectFrom('knowledge_documents')
        .select('id')
        .where('knowledge_base_id', '=', id)
        .execute();
      for (const document of documents) await this.#deleteDocumentContents(document.id, transaction);
      await transaction.deleteFrom('knowledge_documents').where('knowledge_base_id', '=', id).execute();
      await transaction
        .deleteFrom('knowledge_bases')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .execute();
      return attached.map((row) => row.agent_id);
    });
  }

  // --- attachments ---------------------------------------------------------

  /** Sets which bases an agent uses (call in the transaction that writes the agent). */
  async attach(
    accountId: string,
    agentId: string,
    knowledgeBaseIds: readonly string[],
    executor: Executor = this.db,
  ): Promise<void> {
    await executor.deleteFrom('agent_knowledge_bases').where('agent_id', '=', agentId).execute();
    if (knowledgeBaseIds.length === 0) return;
    await executor
      .insertInto('agent_knowledge_bases')
      .values(knowledgeBaseIds.map((id) => ({ agent_id: agentId, knowledge_base_id: id, account_id: accountId })))
      .execute();
  }

  // --- documents -----------------------------------------------------------

  async findDocument(
    accountId: string,
    knowledgeBaseId: string,
    id: string,
    executor: Executor = this.db,
  ): Promise<KnowledgeDocumentRecord | null> {
    const row = await executor
      .selectFrom('knowledge_documents')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('knowledge_base_id', '=', knowledgeBaseId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? documentOf(row) : null;
  }

  async findDocumentByHash(
    knowledgeBaseId: string,
    contentHash: string,
    executor: Executor = this.db,
  ): Promise<KnowledgeDocumentRecord | null> {
    const row = await executor
      .selectFrom('knowledge_documents')
      .selectAll()
      .where('knowledge_base_id', '=', knowledgeBaseId)
      .where('content_hash', '=', contentHash)
      .executeTakeFirst();
    return row ? documentOf(row) : null;
  }

  /**
   * Stores a new document with its bytes, as a job waiting for a worker; when
   * the base already holds the same bytes (even written a moment ago by
   * another request) that document is returned instead and nothing changes.
   */
  async insertDocument(
    record: KnowledgeDocumentRecord,
    body: Uint8Array,
  ): Promise<{ document: KnowledgeDocumentRecord; created: boolean }> {
    const existing = await this.findDocumentByHash(record.knowledgeBaseId, record.contentHash);
    if (existing) return { document: existing, created: false };
    try {
      await inTransaction(this.db, async (transaction) => {
        await transaction
          .insertInto('knowledge_documents')
          .values({
            id: record.id,
            account_id: record.accountId,
            knowledge_base_id: record.knowledgeBaseId,
            title: record.title,
            content_type: record.contentType,
            source: JSON.stringify(record.source),
            content_hash: record.contentHash,
            size_bytes: record.sizeBytes,
            status: record.status,
            status_reason: record.statusReason,
            chunk_count: 0,
            attempts: 0,
            lease_owner: null,
            lease_expires_at: null,
            created_at: record.createdAt,
            updated_at: record.updatedAt,
          })
          .execute();
        await transaction.insertInto('knowledge_document_bodies').values({ document_id: record.id, body }).execute();
      });
    } catch (error) {
      const raced = await this.findDocumentByHash(record.knowledgeBaseId, record.contentHash);
      if (raced) return { document: raced, created: false };
      throw error;
    }
    return { document: record, created: true };
  }

  async documentPage(
    knowledgeBaseId: string,
    query: { limit: number; beforeId?: string },
  ): Promise<KnowledgeDocumentRecord[]> {
    let select = this.db.selectFrom('knowledge_documents').selectAll().where('knowledge_base_id', '=', knowledgeBaseId);
    if (query.beforeId !== undefined) select = select.where('id', '<', query.beforeId);
    const rows = await select.orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map(documentOf);
  }

  async #deleteDocumentContents(documentId: string, executor: Executor): Promise<void> {
    if (this.vectors) {
      const chunks = await executor
        .selectFrom('knowledge_chunks')
        .select('search_id')
        .where('document_id', '=', documentId)
        .execute();
      await this.vectors.delete(
        chunks.map((chunk) => Number(chunk.search_id)),
        executor,
      );
    }
    await executor.deleteFrom('knowledge_chunks').where('document_id', '=', documentId).execute();
    await executor.deleteFrom('knowledge_document_bodies').where('document_id', '=', documentId).execute();
  }

  async deleteDocument(documentId: string): Promise<void> {
    await inTransaction(this.db, async (transaction) => {
      await this.#deleteDocumentContents(documentId, transaction);
      await transaction.deleteFrom('knowledge_documents').where('id', '=', documentId).execute();
    });
  }

  /** Puts a failed document back in the queue (its bytes are kept for this). */
  async requeueDocument(documentId: string, now: string): Promise<void> {
    await this.db
      .updateTable('knowledge_documents')
      .set({ status: 'processing', status_reason: null, lease_owner: null, lease_expires_at: null, updated_at: now })
      .where('id', '=', documentId)
      .where('status', '=', 'failed')
      .execute();
  }

  // --- ingestion jobs ------------------------------------------------------

  /**
   * Claims one document waiting for ingestion (never claimed, or its lease
   * expired: the instance working on it died) for `owner` until `leaseUntil`.
   * Atomic: the update re-checks the lease, so of several instances racing
   * for one document exactly one gets it; on PostgreSQL `for update skip
   * locked` also lets them pick different documents instead of queueing.
   */
  async claimJob(owner: string, now: string, leaseUntil: string): Promise<KnowledgeDocumentRecord | null> {
    const free = (builder: any) =>
      builder
        .where('status', '=', 'processing')
        .where((where: any) => where.or([where('lease_expires_at', 'is', null), where('lease_expires_at', '<', now)]));
    const candidate = free(this.db.selectFrom('knowledge_documents').select('id')).orderBy('id').limit(1);
    const row = await free(
      this.db.updateTable('knowledge_documents').set((expression) => ({
        lease_owner: owner,
        lease_expires_at: leaseUntil,
        attempts: expression('attempts', '+', 1),
      })),
    )
      .where('id', '=', this.dialect === 'postgres' ? candidate.forUpdate().skipLocked() : candidate)
      .returningAll()
      .executeTakeFirst();
    return row ? documentOf(row as DocumentRow) : null;
  }

  /** Extends a lease this owner holds; false when it lost it (expired and taken, or the document is gone). */
  async renewLease(documentId: string, owner: string, leaseUntil: string): Promise<boolean> {
    const result = await this.db
      .updateTable('knowledge_documents')
      .set({ lease_expires_at: leaseUntil })
      .where('id', '=', documentId)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Gives a claimed job back untouched (an instance shutting down), for another worker to take at once. */
  async releaseJob(documentId: string, owner: string): Promise<void> {
    await this.db
      .updateTable('knowledge_documents')
      .set({ lease_owner: null, lease_expires_at: null })
      .where('id', '=', documentId)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'processing')
      .execute();
  }

  async body(documentId: string): Promise<Uint8Array | null> {
    const row = await this.db
      .selectFrom('knowledge_document_bodies')
      .select('body')
      .where('document_id', '=', documentId)
      .executeTakeFirst();
    return row ? row.body : null;
  }

  /**
   * Stores a document's chunks (and vectors) and marks it ready, in one
   * transaction, only while `owner` still holds its lease: whatever chunks an
   * earlier, interrupted attempt left are replaced, so a document is indexed
   * exactly once however often its ingestion was started.
   */
  async completeJob(
    document: KnowledgeDocumentRecord,
    owner: string,
    chunks: readonly NewChunk[],
    now: string,
  ): Promise<boolean> {
    return inTransaction(this.db, async (transaction) => {
      const held = await transaction
        .updateTable('knowledge_documents')
        .set({
          status: 'ready',
          status_reason: null,
          chunk_count: chunks.length,
          lease_owner: null,
          lease_expires_at: null,
          updated_at: now,
        })
        .where('id', '=', document.id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 0) return false;
      if (this.vectors) {
        const old = await transaction
          .selectFrom('knowledge_chunks')
          .select('search_id')
          .where('document_id', '=', document.id)
          .execute();
        await this.vectors.delete(
          old.map((chunk) => Number(chunk.search_id)),
          transaction,
        );
      }
      await transaction.deleteFrom('knowledge_chunks').where('document_id', '=', document.id).execute();
      for (let start = 0; start < chunks.length; start += 100) {
        const batch = chunks.slice(start, start + 100);
        const inserted = await transaction
          .insertInto('knowledge_chunks')
          .values(
            batch.map((chunk) => ({
              id: chunk.id,
              knowledge_base_id: document.knowledgeBaseId,
              document_id: document.id,
              position: chunk.position,
              title: document.title,
              heading: chunk.heading,
              content: chunk.content,
              token_count: chunk.tokenCount,
            })),
          )
          .returning(['search_id', 'position'])
          .execute();
        if (this.vectors) {
          const byPosition = new Map(batch.map((chunk) => [chunk.position, chunk]));
          await this.vectors.insert(
            inserted.flatMap((row) => {
              const vector = byPosition.get(Number(row.position))?.vector;
              return vector ? [{ key: Number(row.search_id), partition: document.knowledgeBaseId, vector }] : [];
            }),
            transaction,
          );
        }
      }
      return true;
    });
  }

  /** Marks a claimed document failed with a reason a user can read; false when the lease was lost. */
  async failJob(documentId: string, owner: string, reason: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('knowledge_documents')
      .set({ status: 'failed', status_reason: reason, lease_owner: null, lease_expires_at: null, updated_at: now })
      .where('id', '=', documentId)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  // --- retrieval -----------------------------------------------------------

  /** Full-text matches among these bases' chunks, best first (`terms` are plain words, see knowledge-query.ts). */
  async searchText(knowledgeBaseIds: readonly string[], terms: readonly string[], limit: number): Promise<number[]> {
    if (knowledgeBaseIds.length === 0 || terms.length === 0) return [];
    const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;
    if (this.dialect === 'sqlite') {
      const bases = knowledgeBaseIds.map((id) => `knowledge_base_id : ${quoted(id)}`).join(' OR ');
      const match = `(${bases}) AND {title heading content} : (${terms.map(quoted).join(' OR ')})`;
      const { rows } = await sql<{ search_id: number }>`
        select rowid as search_id from knowledge_chunk_search
        where knowledge_chunk_search match ${match}
        order by bm25(knowledge_chunk_search, 0.0, 2.0, 2.0, 1.0)
        limit ${limit}`.execute(this.db);
      return rows.map((row) => Number(row.search_id));
    }
    const query = terms.join(' | ');
    const { rows } = await sql<{ search_id: string }>`
      select search_id from knowledge_chunks
      where knowledge_base_id = any(${[...knowledgeBaseIds]}) and search @@ to_tsquery('english', ${query})
      order by ts_rank_cd(search, to_tsquery('english', ${query})) desc, search_id
      limit ${limit}`.execute(this.db);
    return rows.map((row) => Number(row.search_id));
  }

  async chunksBySearchId(searchIds: readonly number[]): Promise<Map<number, StoredChunk>> {
    const found = new Map<number, StoredChunk>();
    for (let start = 0; start < searchIds.length; start += idsPerStatement) {
      const rows = await this.db
        .selectFrom('knowledge_chunks')
        .selectAll()
        .where('search_id', 'in', searchIds.slice(start, start + idsPerStatement))
        .execute();
      for (const row of rows) found.set(Number(row.search_id), chunkOf(row));
    }
    return found;
  }

  async chunksOfDocument(documentId: string): Promise<StoredChunk[]> {
    const rows = await this.db
      .selectFrom('knowledge_chunks')
      .selectAll()
      .where('document_id', '=', documentId)
      .orderBy('position')
      .execute();
    return rows.map(chunkOf);
  }
}

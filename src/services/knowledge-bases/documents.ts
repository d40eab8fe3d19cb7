import { createHash } from 'node:crypto';
import { isoTime } from '../../clock.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { newId } from '../../ids.js';
import { OutboundRefusedError } from '../../outbound/outbound-refused-error.js';
import { readCapped } from '../../plugins/http/capped-body.js';
import type {
  CreateDocumentInput,
  DocumentListView,
  DocumentView,
  ListDocumentsQueryValue,
} from '../../schemas/knowledge-bases.js';
import type { DocumentSource, KnowledgeDocumentRecord } from '../../storage/repositories/knowledge-bases.js';
import { requireScope, type ServiceContext } from '../context.js';
import { formatOf, type DocumentFormat } from './document-text.js';
import { findOwnKnowledgeBase } from './knowledge-bases.js';
import { decodePagedCursor, encodePagedCursor } from '../last-id-cursor.js';
import { toDocumentView } from './views.js';

const defaultLimit = 20;
/** A document URL must answer within this; the whole body must arrive within it too. */
const fetchTimeoutMs = 20_000;

/** A file sent as multipart/form-data, read whole (within the size cap) by the route. */
export interface UploadedFile {
  filename: string;
  mimeType: string;
  bytes: Uint8Array;
  title?: string;
}

interface DocumentBytes {
  title: string;
  format: DocumentFormat;
  source: DocumentSource;
  bytes: Uint8Array;
}

function tooLarge(ctx: ServiceContext): AppError {
  return new AppError(
    'payload_too_large',
    `The document is larger than this server accepts (${ctx.deps.knowledge.maxDocumentBytes} bytes).`,
  );
}

function fromContent(ctx: ServiceContext, input: CreateDocumentInput): DocumentBytes {
  if (input.title === undefined) throw validationError('/body/title', 'is required with content');
  const bytes = Buffer.from(input.content!, 'utf8');
  if (bytes.byteLength > ctx.deps.knowledge.maxDocumentBytes) throw tooLarge(ctx);
  return { title: input.title, format: input.contentType ?? 'text/plain', source: { kind: 'text' }, bytes };
}

async function fromUrl(ctx: ServiceContext, url: string, title: string | undefined): Promise<DocumentBytes> {
  const limit = ctx.deps.knowledge.maxDocumentBytes;
  let response: Response;
  try {
    response = await ctx.deps.knowledge.fetch(url, { signal: AbortSignal.timeout(fetchTimeoutMs) });
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw validationError('/body/url', `is not allowed: ${error.reason}`);
    if (error instanceof TypeError) throw validationError('/body/url', error.message);
    throw validationError('/body/url', 'could not be fetched (no answer, or the connection failed)');
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw validationError('/body/url', `answered HTTP ${response.status}`);
  }
  const path = new URL(url).pathname;
  const format = formatOf(response.headers.get('content-type') ?? undefined, path);
  if (format === null) {
    await response.body?.cancel().catch(() => undefined);
    throw validationError(
      '/body/url',
      'serves a type of document that cannot be read (text, Markdown, HTML, JSON or PDF)',
    );
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(ctx);
  }
  let body;
  try {
    body = await readCapped(response.body, limit);
  } catch {
    throw validationError('/body/url', 'could not be read to its end');
  }
  if (body.truncated) throw tooLarge(ctx);
  return { title: title ?? url, format, source: { kind: 'url', url }, bytes: body.bytes };
}

function fromUpload(ctx: ServiceContext, file: UploadedFile): DocumentBytes {
  const format = formatOf(file.mimeType, file.filename);
  if (format === null) {
    throw validationError('/body/file', 'is of a type that cannot be read (text, Markdown, HTML, JSON or PDF)');
  }
  if (file.bytes.byteLength > ctx.deps.knowledge.maxDocumentBytes) throw tooLarge(ctx);
  if (file.bytes.byteLength === 0) throw validationError('/body/file', 'is empty');
  return {
    title: file.title ?? file.filename,
    format,
    source: { kind: 'upload', filename: file.filename },
    bytes: file.bytes,
  };
}

/**
 * Adds a document to a base: its bytes are stored and a worker indexes them
 * in the background (status `processing`, then `ready` or `failed`). The
 * same bytes already in the base are not added again: that document is
 * returned, with `created` false.
 */
export async function addDocument({
  ctx,
  knowledgeBaseId,
  input,
  upload,
}: {
  ctx: ServiceContext;
  knowledgeBaseId: string;
  input?: CreateDocumentInput;
  upload?: UploadedFile;
}): Promise<{ document: DocumentView; created: boolean }> {
  requireScope(ctx, 'agents:write');
  const base = await findOwnKnowledgeBase(ctx, knowledgeBaseId);
  let document: DocumentBytes;
  if (upload !== undefined) {
    document = fromUpload(ctx, upload);
  } else if (input?.url !== undefined) {
    if (input.content !== undefined) throw validationError('/body/content', 'must not be sent with url');
    if (input.contentType !== undefined) throw validationError('/body/contentType', 'applies to content only');
    document = await fromUrl(ctx, input.url, input.title);
  } else if (input?.content !== undefined) {
    document = fromContent(ctx, input);
  } else {
    throw validationError('/body', 'must have content (with a title), or url');
  }
  const now = isoTime(ctx.deps.clock.now());
  const record: KnowledgeDocumentRecord = {
    id: newId('document'),
    accountId: ctx.actor.accountId,
    knowledgeBaseId: base.id,
    title: document.title,
    contentType: document.format,
    source: document.source,
    contentHash: createHash('sha256').update(document.bytes).digest('hex'),
    sizeBytes: document.bytes.byteLength,
    status: 'processing',
    statusReason: null,
    chunkCount: 0,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  };
  const stored = await ctx.deps.repositories.knowledgeBases.insertDocument(record, document.bytes);
  if (stored.created) {
    ctx.deps.knowledge.ingestion?.wake();
    ctx.deps.logger.info(
      { documentId: record.id, knowledgeBaseId: base.id, sizeBytes: record.sizeBytes, requestId: ctx.requestId },
      'knowledge document added',
    );
  }
  return { document: toDocumentView(stored.document), created: stored.created };
}

async function findOwnDocument(ctx: ServiceContext, knowledgeBaseId: string, documentId: string) {
  const document = await ctx.deps.repositories.knowledgeBases.findDocument(
    ctx.actor.accountId,
    knowledgeBaseId,
    documentId,
  );
  if (document === null) throw notFound('Document');
  return document;
}

export async function listDocuments({
  ctx,
  knowledgeBaseId,
  query,
}: {
  ctx: ServiceContext;
  knowledgeBaseId: string;
  query: ListDocumentsQueryValue;
}): Promise<DocumentListView> {
  requireScope(ctx, 'agents:read');
  const base = await findOwnKnowledgeBase(ctx, knowledgeBaseId);
  const limit = query.limit ?? defaultLimit;
  const cursor = query.cursor !== undefined ? decodePagedCursor('document', query.cursor, 0) : null;
  const rows = await ctx.deps.repositories.knowledgeBases.documentPage(base.id, {
    limit: limit + 1,
    ...(cursor ? { beforeId: cursor.lastId } : {}),
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map(toDocumentView),
    pagination: { limit, hasMore, nextCursor: hasMore && last ? encodePagedCursor(last.id, 0) : null },
  };
}

export async function getDocument({
  ctx,
  knowledgeBaseId,
  documentId,
}: {
  ctx: ServiceContext;
  knowledgeBaseId: string;
  documentId: string;
}): Promise<DocumentView> {
  requireScope(ctx, 'agents:read');
  return toDocumentView(await findOwnDocument(ctx, knowledgeBaseId, documentId));
}

export async function deleteDocument({
  ctx,
  knowledgeBaseId,
  documentId,
}: {
  ctx: ServiceContext;
  knowledgeBaseId: string;
  documentId: string;
}): Promise<{ id: string; deleted: true }> {
  requireScope(ctx, 'agents:delete');
  const document = await findOwnDocument(ctx, knowledgeBaseId, documentId);
  await ctx.deps.repositories.knowledgeBases.deleteDocument(document.id);
  return { id: document.id, deleted: true };
}

/** Puts a failed document back in the queue; a document that has not failed is returned as it is. */
export async function retryDocument({
  ctx,
  knowledgeBaseId,
  documentId,
}: {
  ctx: ServiceContext;
  knowledgeBaseId: string;
  documentId: string;
}): Promise<DocumentView> {
  requireScope(ctx, 'agents:write');
  const document = await findOwnDocument(ctx, knowledgeBaseId, documentId);
  if (document.status !== 'failed') return toDocumentView(document);
  await ctx.deps.repositories.knowledgeBases.requeueDocument(document.id, isoTime(ctx.deps.clock.now()));
  ctx.deps.knowledge.ingestion?.wake();
  return toDocumentView(await findOwnDocument(ctx, knowledgeBaseId, documentId));
}

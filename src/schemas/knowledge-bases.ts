import { Type, type Static } from '@sinclair/typebox';
import { IdString, NullableInResponse, StringEnum, Timestamp } from './common.js';

/**
 * Knowledge bases (documents, chunks, retrieval): request and response shapes,
 * the single source of validation, serialization, the OpenAPI document and types.
 */

export const documentContentTypes = [
  'text/plain',
  'text/markdown',
  'text/html',
  'application/json',
  'application/pdf',
] as const;

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Description = Type.String({ maxLength: 2000 });

export const CreateKnowledgeBaseBody = Type.Object(
  { name: Name, description: Type.Optional(Description) },
  { additionalProperties: false, title: 'CreateKnowledgeBase' },
);
export type CreateKnowledgeBaseInput = Static<typeof CreateKnowledgeBaseBody>;

/** JSON Merge Patch (RFC 7396): `description: null` removes it. */
export const UpdateKnowledgeBaseBody = Type.Object(
  { name: Type.Optional(Name), description: Type.Optional(Type.Union([Description, Type.Null()])) },
  { additionalProperties: false, title: 'UpdateKnowledgeBase' },
);
export type UpdateKnowledgeBaseInput = Static<typeof UpdateKnowledgeBaseBody>;

export const KnowledgeBaseSchema = Type.Object(
  {
    id: IdString('knowledgeBase'),
    name: Type.String(),
    description: NullableInResponse('string'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'KnowledgeBase', title: 'KnowledgeBase' },
);
export type KnowledgeBaseView = Static<typeof KnowledgeBaseSchema>;

export const KnowledgeBaseIdParams = Type.Object({ knowledgeBaseId: Type.String({ maxLength: 100 }) });
export const DocumentIdParams = Type.Object({
  knowledgeBaseId: Type.String({ maxLength: 100 }),
  documentId: Type.String({ maxLength: 100 }),
});

const Cursor = Type.String({
  minLength: 1,
  maxLength: 1000,
  description: 'The `nextCursor` of the previous page.',
});

export const ListKnowledgeBasesQuery = Type.Object(
  {
    page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000_000,
        description: 'Page number, from 1 (default 1). Ignored with `cursor`.',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Per page, 1–100 (default 20).' })),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
export type ListKnowledgeBasesQueryValue = Static<typeof ListKnowledgeBasesQuery>;

export const KnowledgeBaseList = Type.Object({
  data: Type.Array(Type.Ref(KnowledgeBaseSchema)),
  pagination: Type.Object({
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer(),
    totalPages: Type.Integer(),
    hasMore: Type.Boolean(),
    nextCursor: NullableInResponse('string'),
  }),
});
export type KnowledgeBaseListView = Static<typeof KnowledgeBaseList>;

export const DeletedKnowledgeBase = Type.Object({
  id: Type.String(),
  deleted: Type.Literal(true),
  detachedFrom: Type.Array(Type.String(), {
    description: 'The agents that used this knowledge base; it was removed from their `knowledgeBases`.',
  }),
});

export const documentStatuses = ['processing', 'ready', 'failed'] as const;

export const CreateDocumentBody = Type.Object(
  {
    title: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        description: 'Required with `content`; default for `url`: the URL.',
      }),
    ),
    content: Type.Optional(
      Type.String({ minLength: 1, description: 'The document itself, as text (Markdown, HTML, JSON or plain text).' }),
    ),
    contentType: Type.Optional(
      StringEnum(documentContentTypes, { description: 'How to read `content` (default text/plain).' }),
    ),
    url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        format: 'uri',
        description: 'An http(s) URL to fetch the document from (public addresses only).',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'CreateDocument',
    description: 'Either `title` and `content`, or `url` (and optionally `title`).',
  },
);
export type CreateDocumentInput = Static<typeof CreateDocumentBody>;

export const DocumentSchema = Type.Object(
  {
    id: IdString('document'),
    knowledgeBaseId: IdString('knowledgeBase'),
    title: Type.String(),
    contentType: Type.String(),
    source: Type.Object({
      kind: StringEnum(['text', 'url', 'upload']),
      url: Type.Optional(Type.String()),
      filename: Type.Optional(Type.String()),
    }),
    sizeBytes: Type.Integer(),
    contentHash: Type.String({ description: 'SHA-256 of the bytes, hex. The same bytes again are the same document.' }),
    status: StringEnum(documentStatuses, {
      description: '`processing` (waiting or being indexed), `ready` (searchable), `failed` (see statusReason).',
    }),
    statusReason: NullableInResponse('string'),
    chunkCount: Type.Integer(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'KnowledgeDocument', title: 'KnowledgeDocument' },
);
export type DocumentView = Static<typeof DocumentSchema>;

export const ListDocumentsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Per page, 1–100 (default 20).' })),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
export type ListDocumentsQueryValue = Static<typeof ListDocumentsQuery>;

export const DocumentList = Type.Object({
  data: Type.Array(Type.Ref(DocumentSchema)),
  pagination: Type.Object({ limit: Type.Integer(), hasMore: Type.Boolean(), nextCursor: NullableInResponse('string') }),
});
export type DocumentListView = Static<typeof DocumentList>;

export const DeletedDocument = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });

export const retrievalModes = ['hybrid', 'text', 'vector'] as const;

export const SearchKnowledgeBaseBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 4000 }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'Chunks to return, 1–50 (default 5).' })),
    mode: Type.Optional(
      StringEnum(retrievalModes, {
        description:
          '`hybrid` (default: full text and vectors, fused by rank), `text` or `vector` alone. Without an embedding ' +
          'model on the server every mode is full text.',
      }),
    ),
  },
  { additionalProperties: false, title: 'SearchKnowledgeBase' },
);
export type SearchKnowledgeBaseInput = Static<typeof SearchKnowledgeBaseBody>;

export const SearchResults = Type.Object({
  data: Type.Array(
    Type.Object({
      knowledgeBaseId: Type.String(),
      documentId: Type.String(),
      chunkId: Type.String(),
      position: Type.Integer({
        minimum: 0,
        description: "The chunk's place in its document, from 0 (the document's `chunkCount` chunks in order).",
      }),
      title: Type.String({ description: "The document's title." }),
      heading: NullableInResponse('string'),
      content: Type.String(),
      score: Type.Number({
        description: 'Reciprocal-rank-fusion score; higher is better, comparable within one search.',
      }),
    }),
  ),
  mode: StringEnum(retrievalModes, { description: 'The retrieval that ran.' }),
});
export type SearchResultsView = Static<typeof SearchResults>;

/** A knowledge-base chunk a reply's prompt held (messages and message.completed). */
export const CitationView = Type.Object({
  knowledgeBaseId: Type.String(),
  documentId: Type.String(),
  chunkId: Type.String(),
  title: Type.String(),
  score: Type.Number(),
  excerpt: Type.Optional(
    Type.String({
      description:
        "The chunk's opening as the prompt held it (its heading, then up to 200 characters of its text, cut at a " +
        'word with `…`); absent in replies made before excerpts were recorded.',
    }),
  ),
});
export type Citation = Static<typeof CitationView>;

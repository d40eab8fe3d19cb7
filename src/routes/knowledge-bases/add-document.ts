import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { AppError, validationError } from '../../errors.js';
import type { App } from '../../http/app-instance.js';
import { jsonOrMultipartOnly } from '../../http/json-body.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import {
  CreateDocumentBody,
  DocumentSchema,
  KnowledgeBaseIdParams,
  type CreateDocumentInput,
} from '../../schemas/knowledge-bases.js';
import { addDocument, type UploadedFile } from '../../services/knowledge-bases/documents.js';

/** Room for JSON framing and escapes around a document's text (a JSON string may be up to twice its text). */
const jsonOverhead = (maxDocumentBytes: number) => maxDocumentBytes * 2 + 64 * 1024;

/**
 * The one file of a multipart upload, read whole within the size cap; a
 * `title` field sent before the file names the document.
 */
async function uploadedFile(request: FastifyRequest, maxDocumentBytes: number): Promise<UploadedFile> {
  let file;
  try {
    file = await request.file({ limits: { fileSize: maxDocumentBytes, files: 1, fields: 4, fieldSize: 1000 } });
  } catch {
    throw validationError('/body', 'is not a readable multipart/form-data body');
  }
  if (file === undefined) throw validationError('/body/file', 'is required: send the document as a file part');
  let bytes: Buffer;
  try {
    bytes = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        'payload_too_large',
        `The document is larger than this server accepts (${maxDocumentBytes} bytes).`,
      );
    }
    throw validationError('/body/file', 'could not be read to its end');
  }
  const titleField = file.fields.title;
  const title =
    titleField && !Array.isArray(titleField) && titleField.type === 'field' && typeof titleField.value === 'string'
      ? titleField.value.trim().slice(0, 300)
      : '';
  return {
    filename: (file.filename || 'upload').slice(0, 300),
    mimeType: file.mimetype,
    bytes,
    ...(title !== '' ? { title } : {}),
  };
}

export async function registerAddDocument(app: App, options: { maxDocumentBytes: number }): Promise<void> {
  // Its own scope: multipart is accepted on this route only; `bodyLimit` lets JSON bodies be as large as a document.
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: options.maxDocumentBytes, files: 1 } });
    scope.post(
      '/v1/knowledge-bases/:knowledgeBaseId/documents',
      {
        bodyLimit: jsonOverhead(options.maxDocumentBytes),
        onRequest: jsonOrMultipartOnly,
        config: { operation: { scope: 'agents:write', rateLimit: 'writeKnowledgeBases', rateLimitPer: 'account' } },
        schema: {
          operationId: 'addDocument',
          tags: ['knowledge-bases'],
          summary: 'Add a document to a knowledge base',
          description:
            'JSON `{title, content, contentType?}` (text, Markdown, HTML or JSON as text) or `{url, title?}` (fetched ' +
            'from a public address), or a `multipart/form-data` upload with one `file` part (text, Markdown, HTML, ' +
            `JSON or PDF; an optional \`title\` field before it). At most ${options.maxDocumentBytes} bytes ` +
            '(AGENTD_KNOWLEDGE_MAX_DOCUMENT_BYTES). Answers 202 with the document `processing`: it is parsed, chunked, ' +
            'embedded and indexed in the background (poll it until `ready` or `failed`). The same bytes already in ' +
            'the base answer 200 with that document, changing nothing. Scope: `agents:write`.',
          params: KnowledgeBaseIdParams,
          body: { content: { 'application/json': { schema: CreateDocumentBody } } },
          response: {
            200: Type.Ref(DocumentSchema),
            202: Type.Ref(DocumentSchema),
            ...problemResponses(400, 404, 413, 415),
          },
        },
      },
      async (request, reply) => {
        const ctx = contextOf(request);
        const { knowledgeBaseId } = request.params as { knowledgeBaseId: string };
        const { document, created } = request.isMultipart()
          ? await addDocument({
              ctx,
              knowledgeBaseId,
              upload: await uploadedFile(request, options.maxDocumentBytes),
            })
          : await addDocument({ ctx, knowledgeBaseId, input: request.body as CreateDocumentInput });
        return reply
          .status(created ? 202 : 200)
          .header('location', `/v1/knowledge-bases/${document.knowledgeBaseId}/documents/${document.id}`)
          .send(document);
      },
    );
  });
}

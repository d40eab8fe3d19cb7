import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { FileIdParams } from '../../schemas/files.js';
import { describeFile, getFile } from '../../services/files/get-file.js';

/** Files never change: a year, and `immutable` so browsers do not even revalidate; private to the key holder. */
const cacheControl = 'private, max-age=31536000, immutable';

export function registerGetFile(app: App): void {
  app.get(
    '/v1/files/:fileId',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readFiles', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getFile',
        tags: ['files'],
        summary: 'Download a file',
        description:
          'The bytes of a stored file (an image sent with a message, or made by a tool such as generate_image), ' +
          'with its `Content-Type` (png, jpeg, webp or gif, as checked from the bytes), `ETag` and ' +
          '`Cache-Control: private, max-age=31536000, immutable`: a file never changes. `If-None-Match` with the ETag ' +
          "answers 304. Another account's file is 404, like a missing one; files are deleted with their agent. Scope: " +
          '`agents:read`.',
        params: FileIdParams,
        response: {
          200: {
            description: 'The file.',
            content: {
              'image/png': { schema: Type.String({ format: 'binary' }) },
              'image/jpeg': { schema: Type.String({ format: 'binary' }) },
              'image/webp': { schema: Type.String({ format: 'binary' }) },
              'image/gif': { schema: Type.String({ format: 'binary' }) },
            },
          },
          304: { description: 'Not modified: the ETag matched.', type: 'null' },
          ...problemResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const { fileId } = request.params;
      // The id is the file's identity and files never change, so it is a strong validator.
      const etag = `"${fileId}"`;
      const conditional = request.headers['if-none-match'];
      if (conditional !== undefined && conditional.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
        await describeFile({ ctx, fileId });
        return reply.status(304).header('etag', etag).header('cache-control', cacheControl).send();
      }
      const { file, bytes } = await getFile({ ctx, fileId });
      return reply
        .header('content-type', file.mediaType)
        .header('content-length', String(bytes.byteLength))
        .header('etag', etag)
        .header('cache-control', cacheControl)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `inline; filename="${file.id}.${file.mediaType.replace('image/', '')}"`)
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );
}

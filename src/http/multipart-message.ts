import type { FastifyRequest } from 'fastify';
import { AppError, describeFieldErrors, validationError } from '../errors.js';
import { maxAttachmentsPerMessage } from '../schemas/files.js';
import { SendMessageBody, messageLimits } from '../schemas/messages.js';
import type { UploadedImage } from '../services/messages/message-attachments.js';
import type { SendMessageRequest } from '../services/messages/send-message.js';
import { fieldErrorsFrom } from './validation-errors.js';

/**
 * A message sent as multipart/form-data: its fields (`text`, `userId`,
 * `roomId`, `stream`, `background`, `context` as JSON) as form fields, and
 * its images as file parts named `attachments`, their raw bytes. The images
 * are never JSON text, so nothing parses or decodes a megabyte of base64
 * (bench/README, "image-attachment"). The fields are checked against the
 * same schema as a JSON body, with the same pointers in the problem.
 */

/** A form field holds at most the longest text (4 bytes a character) or context, with room to spare. */
const maxFieldBytes = messageLimits.text * 4 + messageLimits.contextBytes * 2;
const booleanFields = new Set(['stream', 'background']);

function fieldValue(name: string, value: string): unknown {
  if (booleanFields.has(name)) return value === 'true' ? true : value === 'false' ? false : value;
  if (name === 'context') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      throw validationError('/body/context', 'is not JSON');
    }
  }
  return value;
}

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

export async function messageFromMultipart(
  request: FastifyRequest,
  maxImageBytes: number,
): Promise<SendMessageRequest> {
  const fields: Record<string, unknown> = {};
  const uploads: UploadedImage[] = [];
  try {
    const parts = request.parts({
      limits: { files: maxAttachmentsPerMessage, fileSize: maxImageBytes, fields: 16, fieldSize: maxFieldBytes },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        const pointer = `/body/attachments/${uploads.length}`;
        if (part.fieldname !== 'attachments') {
          await part.toBuffer().catch(() => undefined);
          throw validationError(
            `/body/${part.fieldname}`,
            'is not a known field (images are file parts named attachments)',
          );
        }
        let bytes: Buffer;
        try {
          bytes = await part.toBuffer();
        } catch (error) {
          if (codeOf(error) === 'FST_REQ_FILE_TOO_LARGE') {
            throw new AppError('payload_too_large', `The image at ${pointer} is larger than ${maxImageBytes} bytes.`, {
              errors: [{ path: pointer, message: `must be at most ${maxImageBytes} bytes` }],
            });
          }
          throw error;
        }
        uploads.push({ type: 'image', bytes });
        continue;
      }
      if (part.valueTruncated)
        throw validationError(`/body/${part.fieldname}`, `must be at most ${maxFieldBytes} bytes`);
      if (part.fieldname in fields) throw validationError(`/body/${part.fieldname}`, 'is given more than once');
      fields[part.fieldname] = fieldValue(part.fieldname, String(part.value));
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    switch (codeOf(error)) {
      case 'FST_FILES_LIMIT':
        throw validationError('/body/attachments', `must have at most ${maxAttachmentsPerMessage} items`);
      case 'FST_FIELDS_LIMIT':
      case 'FST_PARTS_LIMIT':
        throw validationError('/body', 'has too many fields');
      default:
        throw validationError('/body', 'is not a readable multipart/form-data body');
    }
  }
  const validate = request.compileValidationSchema(SendMessageBody);
  if (!validate(fields)) {
    const errors = fieldErrorsFrom(validate.errors ?? [], 'body');
    throw new AppError('validation_failed', describeFieldErrors(errors), { errors });
  }
  const message = fields as SendMessageRequest;
  return uploads.length > 0 ? { ...message, attachments: uploads } : message;
}

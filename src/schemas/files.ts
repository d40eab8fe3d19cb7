import { Type, type Static } from '@sinclair/typebox';
import { imageMediaTypes } from '../files/image-bytes.js';
import { IdString, StringEnum } from './common.js';

/**
 * Files and attachments: images sent with a message, images an answer
 * produced, and the file route that serves them.
 */

/** At most this many images per message. */
export const maxAttachmentsPerMessage = 4;

const ImageMediaType = StringEnum(imageMediaTypes, {
  description: 'png, jpeg, webp or gif; always checked against the bytes themselves (their magic numbers).',
});

export const AttachmentInput = Type.Object(
  {
    type: Type.Literal('image'),
    url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        description:
          'An http(s) URL of the image, fetched by agentd from a public address (private and loopback addresses are ' +
          'refused); or give `data`.',
      }),
    ),
    // No minLength: checking one counts every character of a megabyte of base64 (an empty one is refused by the service).
    data: Type.Optional(
      Type.String({
        description: 'The image itself, base64 (a `data:image/…;base64,` URL is accepted too); or give `url`.',
      }),
    ),
    mediaType: Type.Optional(ImageMediaType),
  },
  { additionalProperties: false, title: 'AttachmentInput' },
);
export type AttachmentInputValue = Static<typeof AttachmentInput>;

export const Attachment = Type.Object(
  {
    fileId: IdString('file'),
    type: Type.Literal('image'),
    mediaType: ImageMediaType,
    url: Type.String({ description: 'Where key holders of the account fetch it: /v1/files/{fileId}.' }),
    width: Type.Optional(Type.Integer({ description: 'Pixels, from the image header.' })),
    height: Type.Optional(Type.Integer({ description: 'Pixels, from the image header.' })),
    sizeBytes: Type.Integer(),
  },
  { $id: 'Attachment', title: 'Attachment' },
);
export type AttachmentView = Static<typeof Attachment>;

export const FileIdParams = Type.Object({ fileId: IdString('file') });

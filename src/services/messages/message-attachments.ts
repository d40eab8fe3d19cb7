import { AppError, validationError } from '../../errors.js';
import { attachmentOf, isRefusal, type CheckedImage, type ImageRefusal } from '../../files/file-store.js';
import { OutboundRefusedError } from '../../outbound/outbound-refused-error.js';
import { readCapped } from '../../plugins/http/capped-body.js';
import type { AttachmentView, AttachmentInputValue } from '../../schemas/files.js';
import type { PromptImage } from '../../conversation/prompt.js';
import type { ServiceContext } from '../context.js';

/**
 * The images sent with a message, read and checked before anything of the
 * message is stored or a model is called: each is base64 `data` or a `url`
 * fetched through the SSRF-safe client, at most the size cap, and a png,
 * jpeg, webp or gif by its magic bytes. Any problem answers 400 (413 for
 * size) naming the attachment by its JSON pointer.
 */

/**
 * An image sent as its raw bytes (a part of a multipart/form-data message),
 * not as base64 text or a URL: no JSON text of it to parse, nothing to
 * decode.
 */
export interface UploadedImage {
  type: 'image';
  bytes: Uint8Array;
}

/** An image as a message may carry it: base64 `data`, a `url`, or uploaded bytes. */
export type MessageAttachmentInput = AttachmentInputValue | UploadedImage;

/** An image of a message, checked, with how it is shown to clients. */
export interface MessageImage {
  image: CheckedImage;
  view: AttachmentView;
}

/** How the model is shown a checked image. */
export function promptImageOf({ image }: MessageImage): PromptImage {
  return { mediaType: image.mediaType, bytes: image.bytes, width: image.width, height: image.height };
}

/** An image URL must answer, body included, within this. */
const fetchTimeoutMs = 15_000;

const dataUrl = /^data:([a-z]+\/[a-z0-9.+-]+)?(;[a-z0-9-]+=[^;,]*)*;base64,/i;

/** Strict base64: Buffer.from skips characters outside the alphabet, so the decoded length tells whether any were. */
function decodeBase64(text: string): Buffer | null {
  const prefix = dataUrl.exec(text.slice(0, 200));
  const body = prefix === null ? text : text.slice(prefix[0].length);
  const bytes = Buffer.from(body, 'base64');
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  if (body.length % 4 === 1 || bytes.byteLength !== Math.floor((body.length * 3) / 4) - padding) return null;
  return bytes;
}

function tooLarge(pointer: string, maxBytes: number): AppError {
  return new AppError('payload_too_large', `The image at ${pointer} is larger than ${maxBytes} bytes.`, {
    errors: [{ path: pointer, message: `must be at most ${maxBytes} bytes` }],
  });
}

function refused(pointer: string, refusal: ImageRefusal): AppError {
  if (refusal.reason === 'too-large') return tooLarge(pointer, refusal.maxBytes);
  if (refusal.reason === 'empty') return validationError(pointer, 'is empty');
  return validationError(pointer, 'is not a png, jpeg, webp or gif image (checked by its bytes)');
}

async function fetchImage(ctx: ServiceContext, url: string, pointer: string, signal: AbortSignal): Promise<Uint8Array> {
  const { fetch, store } = ctx.deps.files;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw validationError(pointer, 'is not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw validationError(pointer, 'must be http(s)');
  let response: Response;
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(fetchTimeoutMs)]);
  try {
    response = await fetch(parsed, { signal: timeout });
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw validationError(pointer, `is not allowed: ${error.reason}`);
    if (error instanceof TypeError && !(error.cause instanceof Error)) throw validationError(pointer, error.message);
    throw validationError(pointer, 'could not be fetched (no answer, or the connection failed)');
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw validationError(pointer, `answered HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > store.maxImageBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(pointer, store.maxImageBytes);
  }
  let body;
  try {
    body = await readCapped(response.body, store.maxImageBytes);
  } catch {
    throw validationError(pointer, 'could not be read to its end');
  }
  if (body.truncated) throw tooLarge(pointer, store.maxImageBytes);
  return body.bytes;
}

async function readAttachment(
  ctx: ServiceContext,
  input: MessageAttachmentInput,
  pointer: string,
  signal: AbortSignal,
): Promise<MessageImage> {
  const { store } = ctx.deps.files;
  if ('bytes' in input) {
    const checked = store.check(input.bytes);
    if (isRefusal(checked)) throw refused(pointer, checked);
    return { image: checked, view: attachmentOf(checked) };
  }
  let bytes: Uint8Array;
  let where: string;
  if (input.data !== undefined) {
    if (input.url !== undefined) throw validationError(`${pointer}/url`, 'must not be sent with data');
    where = `${pointer}/data`;
    // A quick bound before decoding: base64 is 4 characters per 3 bytes.
    if (input.data.length > Math.ceil(store.maxImageBytes / 3) * 4 + 200) throw tooLarge(where, store.maxImageBytes);
    const decoded = decodeBase64(input.data);
    if (decoded === null) throw validationError(where, 'is not base64');
    bytes = decoded;
  } else if (input.url !== undefined) {
    where = `${pointer}/url`;
    bytes = await fetchImage(ctx, input.url, where, signal);
  } else {
    throw validationError(pointer, 'must have data (base64) or url');
  }
  const checked = store.check(bytes);
  if (isRefusal(checked)) throw refused(where, checked);
  if (input.mediaType !== undefined && input.mediaType !== checked.mediaType) {
    throw validationError(
      `${pointer}/mediaType`,
      `says ${input.mediaType}, but the bytes are ${checked.mediaType}; leave it out or correct it`,
    );
  }
  return { image: checked, view: attachmentOf(checked) };
}

/** The message's images, checked (in parallel, so several URLs cost the slowest), or none. */
export async function readMessageAttachments(
  ctx: ServiceContext,
  attachments: readonly MessageAttachmentInput[] | undefined,
  signal: AbortSignal,
): Promise<MessageImage[]> {
  if (attachments === undefined || attachments.length === 0) return [];
  return Promise.all(
    attachments.map((attachment, index) => readAttachment(ctx, attachment, `/body/attachments/${index}`, signal)),
  );
}

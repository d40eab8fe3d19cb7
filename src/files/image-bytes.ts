import { imageSize } from 'image-size';

/**
 * What an image is, read from its bytes alone: the sender's name for the type
 * (a Content-Type header, a `mediaType` field, a file name) is never trusted,
 * since it decides how browsers and models read the bytes. Four types are
 * accepted, the ones every vision model and chat platform takes.
 */
export const imageMediaTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ImageMediaType = (typeof imageMediaTypes)[number];

export interface ImageFacts {
  mediaType: ImageMediaType;
  /** Pixel size from the image's header; null when the header does not say (a truncated file). */
  width: number | null;
  height: number | null;
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  for (let index = 0; index < signature.length; index += 1) {
    if (bytes[offset + index] !== signature[index]) return false;
  }
  return true;
}

const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const jpeg = [0xff, 0xd8, 0xff];
const gif87 = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61];
const gif89 = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];
const riff = [0x52, 0x49, 0x46, 0x46];
const webp = [0x57, 0x45, 0x42, 0x50];

/** The type by its magic bytes (the file signatures of PNG, JPEG/JFIF, RIFF WEBP and GIF87a/89a), or null. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | null {
  if (startsWith(bytes, png)) return 'image/png';
  if (startsWith(bytes, jpeg)) return 'image/jpeg';
  if (startsWith(bytes, gif87) || startsWith(bytes, gif89)) return 'image/gif';
  if (startsWith(bytes, riff) && startsWith(bytes, webp, 8)) return 'image/webp';
  return null;
}

/** The image's type and pixel size, or null when the bytes are not one of the accepted types. */
export function readImageFacts(bytes: Uint8Array): ImageFacts | null {
  const mediaType = sniffImageType(bytes);
  if (mediaType === null) return null;
  let width: number | null = null;
  let height: number | null = null;
  try {
    // The header only: image-size reads the few bytes that hold the size, never decodes pixels.
    const size = imageSize(bytes);
    width = size.width ?? null;
    height = size.height ?? null;
  } catch {
    // A signature with a broken header: the type stands, the size is unknown.
  }
  return { mediaType, width, height };
}

/** `png`, `jpeg`, `webp` or `gif`: how people name the type. */
export function shortTypeName(mediaType: string): string {
  return mediaType.replace(/^image\//, '');
}

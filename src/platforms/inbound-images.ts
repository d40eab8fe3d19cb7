import { attemptSignal } from '../attempt-signal.js';
import { readCapped } from '../plugins/http/capped-body.js';
import { maxAttachmentsPerMessage } from '../schemas/files.js';
import type { InboundMessage, PlatformContext } from './platform.js';

/**
 * Images platform users send (a Slack file, a Discord attachment), fetched
 * by the connector and handed to the core as bytes, where they are checked
 * like any message's images (size cap, png/jpeg/webp/gif by their bytes).
 */

/** A file a platform message carries, as the platform describes it before it is fetched. */
export interface PlatformFile {
  url: string;
  /** The type the platform reports (Slack's `mimetype`, Discord's `content_type`), if any. */
  mediaType?: string;
  /** The size the platform reports, if any. */
  sizeBytes?: number;
}

/** Files are read up to this size (the core's own, smaller cap applies after, with its own answer). */
export const maxPlatformFileBytes = 20 * 1_048_576;
/** A file must arrive, body included, within this. */
const downloadTimeoutMs = 15_000;

/** What a photo sent without text says to the agent. */
export const uncaptionedImageText = '(a photo)';

/** True for a file worth fetching: reported as an image, and not larger than the connector reads. */
export function isFetchableImage(file: PlatformFile): boolean {
  return (
    file.mediaType?.toLowerCase().startsWith('image/') === true &&
    (file.sizeBytes === undefined || file.sizeBytes <= maxPlatformFileBytes)
  );
}

/**
 * Fetches a message's image files through the SSRF-safe client (`headers`
 * only for URLs `withHeaders` accepts: a bot token goes to its platform's
 * file host and nowhere else; the client drops it on a redirect to another
 * origin). Resolves with the bytes and whether any file could not be read:
 * not an image, too large, or a failed download.
 * Failures are logged by status or cause, never with the URL's query or the
 * headers.
 */
export async function fetchImages(
  files: readonly PlatformFile[],
  context: Pick<PlatformContext, 'fetch' | 'logger' | 'signal'>,
  options: { headers?: Record<string, string>; withHeaders?: (url: URL) => boolean } = {},
): Promise<{ images: Uint8Array[]; unreadable: boolean }> {
  const wanted = files.filter(isFetchableImage).slice(0, maxAttachmentsPerMessage);
  const fetched = await Promise.all(wanted.map((file) => fetchOne(file, context, options)));
  const images = fetched.filter((bytes): bytes is Uint8Array => bytes !== null);
  // Images past what a message takes are left out, as for Telegram; any other file not read is reported.
  return { images, unreadable: images.length < wanted.length || files.some((file) => !isFetchableImage(file)) };
}

async function fetchOne(
  file: PlatformFile,
  context: Pick<PlatformContext, 'fetch' | 'logger' | 'signal'>,
  options: { headers?: Record<string, string>; withHeaders?: (url: URL) => boolean },
): Promise<Uint8Array | null> {
  let url: URL;
  try {
    url = new URL(file.url);
  } catch {
    return null;
  }
  const where = { host: url.host, path: url.pathname };
  if (options.headers !== undefined && options.withHeaders?.(url) !== true) {
    context.logger.warn(where, 'platform file not fetched: its host is not the platform’s');
    return null;
  }
  const attempt = attemptSignal(context.signal, downloadTimeoutMs);
  const { signal } = attempt;
  try {
    const response = await context.fetch(url, { headers: options.headers ?? {}, signal });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      context.logger.warn({ ...where, status: response.status }, 'platform file not fetched');
      return null;
    }
    const body = await readCapped(response.body, maxPlatformFileBytes);
    if (body.truncated) {
      context.logger.warn(where, 'platform file not fetched: larger than reported');
      return null;
    }
    return body.bytes;
  } catch (error) {
    if (!context.signal.aborted) {
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : '';
      context.logger.warn({ ...where, reason }, 'platform file not fetched');
    }
    return null;
  } finally {
    attempt.release();
  }
}

/** The message with the images fetched for it, or marked unreadable when a file could not be taken. */
export function withImages(
  message: InboundMessage,
  fetched: { images: Uint8Array[]; unreadable: boolean },
): InboundMessage {
  if (fetched.unreadable) return { ...message, unreadableFile: true };
  return fetched.images.length > 0 ? { ...message, images: fetched.images } : message;
}

import { TextDecoder } from 'node:util';
import { compile } from 'html-to-text';
import { ToolError } from '../plugin.js';
import type { SecretMask } from '../redact-secrets.js';

/** Pages as a model reads them best: text and compact links; no scripts, styles or images. */
const htmlToText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, noAnchorUrl: true, linkBrackets: ['(', ')'] } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'noscript', format: 'skip' },
  ],
});

function decoderFor(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    // A label TextDecoder does not know: UTF-8 is what such pages nearly always are.
    return new TextDecoder('utf-8');
  }
}

/**
 * The body as text, up to `maxBytes` of it. `bytes` may run past the cap (by
 * the mask's margin, see sendRequest): a secret that begins before the cut is
 * then masked whole, where cutting first would leave its first characters
 * for the model to read.
 */
function decodedUpTo(
  bytes: Uint8Array,
  charset: string | undefined,
  maxBytes: number,
  secretMask: SecretMask | undefined,
): string {
  const decoder = decoderFor(charset);
  if (bytes.byteLength <= maxBytes) return decoder.decode(bytes);
  // `stream` keeps back a character the cut splits, rather than ending the text with U+FFFD.
  const head = decoder.decode(bytes.subarray(0, maxBytes), { stream: true });
  if (secretMask === undefined) return head;
  return secretMask.head(head + decoder.decode(bytes.subarray(maxBytes)), head.length);
}

/**
 * A response body as text for the model: HTML reduced to its text, JSON as
 * compact JSON, other text as it is, each cut at `maxBytes` of the body.
 * Anything else is refused with a ToolError, since bytes of an image or
 * archive mean nothing to the model.
 */
export function readableText(
  contentTypeHeader: string | null,
  bytes: Uint8Array,
  truncated: boolean,
  maxBytes: number,
  secretMask?: SecretMask,
): { contentType: string | null; text: string } {
  if (contentTypeHeader === null) {
    if (bytes.byteLength === 0) return { contentType: null, text: '' };
    throw new ToolError('The server did not say what type of content it sent, so it was not read.');
  }
  const [mediaType = '', ...parameters] = contentTypeHeader.split(';').map((part) => part.trim());
  const contentType = mediaType.toLowerCase();
  const charset = parameters
    .map((parameter) => /^charset="?([^"]+)"?$/i.exec(parameter)?.[1])
    .find((value) => value !== undefined);
  const body = () => decodedUpTo(bytes, charset, maxBytes, secretMask);
  if (contentType === 'text/html' || contentType === 'application/xhtml+xml') {
    return { contentType, text: htmlToText(body()) };
  }
  if (contentType === 'application/json' || contentType.endsWith('+json')) {
    const text = body();
    if (truncated) return { contentType, text };
    try {
      return { contentType, text: JSON.stringify(JSON.parse(text)) };
    } catch {
      return { contentType, text };
    }
  }
  if (contentType.startsWith('text/')) return { contentType, text: body() };
  throw new ToolError(
    `The response is ${contentType}, which is not text; only HTML, JSON and text/* responses are read.`,
  );
}

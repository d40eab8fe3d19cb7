import { compile } from 'html-to-text';
import { ToolError } from '../plugin.js';

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

function decode(bytes: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    // A label TextDecoder does not know: UTF-8 is what such pages nearly always are.
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/**
 * A response body as text for the model: HTML reduced to its text, JSON as
 * compact JSON, other text as it is. Anything else is refused with a ToolError,
 * since bytes of an image or archive mean nothing to the model.
 */
export function readableText(
  contentTypeHeader: string | null,
  bytes: Uint8Array,
  truncated: boolean,
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
  if (contentType === 'text/html' || contentType === 'application/xhtml+xml') {
    return { contentType, text: htmlToText(decode(bytes, charset)) };
  }
  if (contentType === 'application/json' || contentType.endsWith('+json')) {
    const text = decode(bytes, charset);
    if (truncated) return { contentType, text };
    try {
      return { contentType, text: JSON.stringify(JSON.parse(text)) };
    } catch {
      return { contentType, text };
    }
  }
  if (contentType.startsWith('text/')) return { contentType, text: decode(bytes, charset) };
  throw new ToolError(
    `The response is ${contentType}, which is not text; only HTML, JSON and text/* responses are read.`,
  );
}

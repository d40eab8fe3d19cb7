/**
 * Turning a document's bytes into text: the formats knowledge bases accept,
 * how a content type or file name maps to one, and each format's reader.
 * Markdown keeps its headings (the chunker splits on them); HTML is converted
 * to text with its headings marked the same way; JSON is pretty-printed; PDF
 * is read with pdfjs-dist (Mozilla's PDF.js, its build for Node), page by page.
 */
export const documentFormats = [
  'text/plain',
  'text/markdown',
  'text/html',
  'application/json',
  'application/pdf',
] as const;
export type DocumentFormat = (typeof documentFormats)[number];

const byExtension: Record<string, DocumentFormat> = {
  txt: 'text/plain',
  text: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  json: 'application/json',
  pdf: 'application/pdf',
};

/** The format of a content type (parameters ignored), or of a file name's extension when the type says nothing. */
export function formatOf(contentType: string | undefined, filename?: string): DocumentFormat | null {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  if (essence === 'text/x-markdown') return 'text/markdown';
  if (essence === 'application/xhtml+xml') return 'text/html';
  if (essence && (documentFormats as readonly string[]).includes(essence)) return essence as DocumentFormat;
  const extension = filename?.split('.').pop()?.toLowerCase();
  if (extension && byExtension[extension]) return byExtension[extension];
  if (essence === undefined || essence === '' || essence === 'application/octet-stream') return null;
  return essence.startsWith('text/') ? 'text/plain' : null;
}

/** A document that cannot be read; the message is shown as the document's `statusReason`. */
export class DocumentReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentReadError';
  }
}

const headingSelectors = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag, index) => ({
  selector: tag,
  format: 'blockString',
  options: { leadingLineBreaks: 2, trailingLineBreaks: 2, uppercase: false, prefix: `${'#'.repeat(index + 1)} ` },
}));

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new DocumentReadError('the document is not valid UTF-8 text');
  }
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  // Loaded on first use: PDF.js is large and most deployments may never read a PDF.
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let document;
  try {
    document = await pdfjs.getDocument({
      // PDF.js takes ownership of (detaches) the buffer it is given.
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
      verbosity: 0,
    }).promise;
  } catch {
    throw new DocumentReadError('the document is not a readable PDF');
  }
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push(text.trim());
      page.cleanup();
    }
    return pages.filter((page) => page !== '').join('\n\n');
  } catch {
    throw new DocumentReadError('the PDF could not be read to its end');
  } finally {
    await document.destroy();
  }
}

/** The text of a document, with `#` headings where the format has headings. */
export async function documentText(format: DocumentFormat, bytes: Uint8Array): Promise<string> {
  let text: string;
  switch (format) {
    case 'text/plain':
    case 'text/markdown':
      text = decodeUtf8(bytes);
      break;
    case 'text/html': {
      // Loaded with the first HTML document rather than at start-up.
      const { convert } = await import('html-to-text');
      text = convert(decodeUtf8(bytes), {
        wordwrap: false,
        selectors: [
          ...headingSelectors,
          { selector: 'a', options: { ignoreHref: true } },
          { selector: 'img', format: 'skip' },
        ],
      });
      break;
    }
    case 'application/json':
      try {
        text = JSON.stringify(JSON.parse(decodeUtf8(bytes)), null, 2);
      } catch (error) {
        if (error instanceof DocumentReadError) throw error;
        throw new DocumentReadError('the document is not valid JSON');
      }
      break;
    case 'application/pdf':
      text = await pdfText(bytes);
      break;
  }
  if (text.trim() === '') throw new DocumentReadError('the document holds no text');
  return text;
}

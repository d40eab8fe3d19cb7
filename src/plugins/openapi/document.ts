import type { parse as parseYamlType } from 'yaml';
import { readCapped } from '../http/capped-body.js';
import type { FetchFunction } from '../plugin.js';
import { maxDocumentBytes, type OpenApiConfig } from './config.js';

/** Something wrong with the document, at a JSON pointer into the plugin entry (`/config/document`, `/config/url`). */
export class DocumentProblem extends Error {
  override readonly name = 'DocumentProblem';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** An OpenAPI document as read, with every `$ref` inside it resolved (cycles are shared objects). */
export type OpenApiDocument = Record<string, unknown>;

export interface LoadedDocument {
  document: OpenApiDocument;
  /** Where the document came from, for relative server URLs; null for an inline one. */
  source: URL | null;
}

const fetchTimeoutMs = 10_000;
/** Problems quoted from the validator at most; the rest are counted. */
const quotedProblems = 3;

function where(config: OpenApiConfig): string {
  return config.url !== undefined ? '/config/url' : '/config/document';
}

// The parser and the validator are loaded with the first document, not at start-up: together they are a few
// hundred modules that a server without `openapi` entries never needs.
const openApiParser = () => import('@readme/openapi-parser');
let parseYaml: typeof parseYamlType | undefined;

async function parseText(text: string, path: string): Promise<unknown> {
  parseYaml ??= (await import('yaml')).parse;
  try {
    // YAML 1.2 reads JSON as well. The alias cap keeps a "billion laughs" document from growing without bound.
    return parseYaml(text, { maxAliasCount: 1000, uniqueKeys: false });
  } catch (error) {
    const firstLine = (error as Error).message.split('\n')[0] ?? '';
    throw new DocumentProblem(path, `is not JSON or YAML: ${firstLine}`);
  }
}

async function fetchText(url: URL, fetch: FetchFunction): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json, application/yaml, text/yaml, text/plain;q=0.5' },
      signal: AbortSignal.timeout(fetchTimeoutMs),
    });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${fetchTimeoutMs} ms`
        : (error as Error).name === 'OutboundRefusedError'
          ? (error as Error).message
          : `${url.host} could not be reached`;
    throw new DocumentProblem('/config/url', `could not be fetched: ${reason}`);
  }
  if (response.status < 200 || response.status > 299) {
    await response.body?.cancel();
    throw new DocumentProblem('/config/url', `could not be fetched: the server answered ${response.status}`);
  }
  const { bytes, truncated } = await readCapped(response.body, maxDocumentBytes);
  if (truncated) throw new DocumentProblem('/config/url', 'names a document larger than 1 MiB');
  return new TextDecoder().decode(bytes);
}

/** The document of the entry as a value: inline, or fetched through the SSRF-safe client. */
async function documentValue(config: OpenApiConfig, fetch: FetchFunction): Promise<unknown> {
  if (config.url !== undefined) return await parseText(await fetchText(new URL(config.url), fetch), '/config/url');
  if (typeof config.document === 'string') return await parseText(config.document, '/config/document');
  return structuredClone(config.document);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Reads the entry's document, checks that it is OpenAPI 3.0 or 3.1 (with
 * `validate`, against the specification's schema and its rules, as on create
 * and PATCH), and resolves its `$ref`s. References outside the document are
 * never followed (they would be calls to addresses nobody checked) and stay
 * as they are; a cycle among the document's own becomes a shared object, cut
 * where the tools' input schemas are made.
 */
export async function loadDocument(
  config: OpenApiConfig,
  fetch: FetchFunction,
  options: { validate: boolean },
): Promise<LoadedDocument> {
  const path = where(config);
  const value = await documentValue(config, fetch);
  if (!isObject(value) || typeof value.openapi !== 'string' || !/^3\.[01]\./.test(value.openapi)) {
    throw new DocumentProblem(
      path,
      'is not an OpenAPI 3.0 or 3.1 document (its `openapi` field must be 3.0.x or 3.1.x)',
    );
  }
  const resolve = { external: false, file: false };
  const { compileErrors, dereference, validate } = await openApiParser();
  if (options.validate) {
    let result;
    try {
      result = await validate(structuredClone(value) as never, { resolve, validate: { errors: { colorize: false } } });
    } catch (error) {
      throw new DocumentProblem(path, `is not a valid OpenAPI document: ${(error as Error).message.split('\n')[0]}`);
    }
    if (!result.valid) {
      const messages = result.errors.map((error) => error.message.split('\n')[0]?.trim() ?? '').filter(Boolean);
      const shown = messages.slice(0, quotedProblems).join('; ');
      const more = messages.length - quotedProblems + result.additionalErrors;
      throw new DocumentProblem(
        path,
        `is not a valid OpenAPI document: ${shown || compileErrors(result).split('\n')[0]}${more > 0 ? ` (and ${more} more)` : ''}`,
      );
    }
  }
  let document: OpenApiDocument;
  try {
    document = (await dereference(value as never, { resolve, dereference: { circular: true } })) as OpenApiDocument;
  } catch (error) {
    throw new DocumentProblem(path, `has a $ref that cannot be resolved: ${(error as Error).message.split('\n')[0]}`);
  }
  return { document, source: config.url !== undefined ? new URL(config.url) : null };
}

import { isSafeMethod } from '../http/safe-methods.js';
import { sendRequest } from '../http/send-request.js';
import { ToolError, type PluginDefinition, type PluginEntryProblem, type Tool } from '../plugin.js';
import { redactText, SecretMask } from '../redact-secrets.js';
import { maxOperations, openApiConfigSchema, openApiSecretsSchema, type OpenApiConfig } from './config.js';
import { DocumentProblem, loadDocument, type LoadedDocument } from './document.js';
import { isCallable, operationsOf, toolNames, type Operation } from './operations.js';
import { requestFor } from './request.js';
import { credentialsFor, derivedSecretForms, securitySchemeNames } from './security.js';

/** JSON Pointer escaping (RFC 6901) of one reference token. */
const pointerToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Where the API is: the entry's `baseUrl`, else the document's first server
 * (its variables at their defaults; a relative URL read against where the
 * document came from).
 */
function baseUrlOf(config: OpenApiConfig, { document, source }: LoadedDocument): URL {
  if (config.baseUrl !== undefined) return new URL(config.baseUrl);
  const server = Array.isArray(document.servers) ? (document.servers[0] as Record<string, unknown>) : undefined;
  if (server === undefined || typeof server.url !== 'string' || server.url === '/') {
    if (source !== null) return new URL('/', source);
    throw new DocumentProblem('/config/baseUrl', 'is needed: the document names no server to call');
  }
  const variables = (server.variables ?? {}) as Record<string, { default?: unknown }>;
  const template = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => String(variables[name]?.default ?? ''));
  let url: URL;
  try {
    url = source === null ? new URL(template) : new URL(template, source);
  } catch {
    throw new DocumentProblem('/config/baseUrl', `is needed: the document's server ${template} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DocumentProblem('/config/baseUrl', `is needed: the document's server ${template} is not http or https`);
  }
  return url;
}

/** The operations the entry turns into tools: the allowed ones that can be called. */
function chosenOperations(config: OpenApiConfig, loaded: LoadedDocument): Operation[] {
  const allowed = config.operations ? new Set(config.operations) : null;
  return operationsOf(loaded.document)
    .filter(isCallable)
    .filter((operation) => allowed === null || allowed.has(operation.id))
    .slice(0, maxOperations);
}

/**
 * Makes the operations of an OpenAPI 3.0 or 3.1 document tools the model can
 * call: one per operation, named after its operationId, taking its path,
 * query and header parameters and its JSON body. Calls go through the core's
 * SSRF-safe client with the http plugin's caps, and carry the credentials of
 * the document's security schemes from the entry's secrets, which the model
 * never sees. Any status is an answer the model reads.
 */
export const openApiPlugin: PluginDefinition<typeof openApiConfigSchema, typeof openApiSecretsSchema> = {
  name: 'openapi',
  description:
    'Turns the operations of an OpenAPI 3.0 or 3.1 document (inline or by URL) into tools, with the credentials of its security schemes kept from the model.',
  configSchema: openApiConfigSchema,
  secretsSchema: openApiSecretsSchema,
  configRequired: true,
  // The credentials go to `baseUrl`, else to the document's first server: the document at `url`, or the inline
  // one taken whole (its servers may be `$ref`s into the rest of it).
  secretDestination: (config) =>
    config.baseUrl !== undefined ? { baseUrl: config.baseUrl } : { url: config.url, document: config.document },

  async open(config, secrets, context) {
    let loaded: LoadedDocument;
    let base: URL;
    try {
      loaded = await loadDocument(config, context.fetch, { validate: false });
      base = baseUrlOf(config, loaded);
    } catch (error) {
      if (error instanceof DocumentProblem) throw new Error(`the OpenAPI document ${error.message}`);
      throw error;
    }
    const { document } = loaded;
    const operations = chosenOperations(config, loaded);
    const names = toolNames(
      operations.map((operation) => operation.id),
      config.prefix,
    );
    const echoed = derivedSecretForms(document, secrets);
    // For the cut at maxResponseBytes: a secret it would split is masked whole (see sendRequest).
    const secretMask = new SecretMask(Object.values(secrets));
    const tools = operations.map((operation, index): Tool => {
      const credentials = credentialsFor(document, operation.security, secrets);
      return {
        name: names[index]!,
        description: operation.description,
        inputSchema: operation.inputSchema,
        // By the operation's method: GET, HEAD and OPTIONS only read, whatever the API does with the others.
        sideEffects: !isSafeMethod(operation.method),
        async execute(input, { abortSignal }) {
          const request = requestFor(operation, base, input);
          for (const [name, value] of credentials?.query ?? []) request.url.searchParams.append(name, value);
          try {
            const result = await sendRequest(request, {
              fetch: context.fetch,
              timeoutMs: config.timeoutMs,
              maxResponseBytes: config.maxResponseBytes,
              secretMask,
              abortSignal,
              // Only to the API's own origin: a redirect elsewhere goes without them.
              credentialsFor: (url) =>
                credentials !== null && url.origin === base.origin ? credentials.headers : null,
            });
            return echoed.length > 0
              ? { ...result, url: redactText(result.url, echoed), text: redactText(result.text, echoed) }
              : result;
          } catch (error) {
            if (error instanceof ToolError) throw new ToolError(redactText(error.message, echoed));
            throw error;
          }
        },
      };
    });
    return { tools };
  },

  async check(config, secretNames, context) {
    const given = [config.document, config.url].filter((value) => value !== undefined).length;
    if (given !== 1) return [{ path: '/config', message: 'must have either `document` or `url`, not both or neither' }];
    let loaded: LoadedDocument;
    try {
      loaded = await loadDocument(config, context.fetch, { validate: true });
      baseUrlOf(config, loaded);
    } catch (error) {
      if (error instanceof DocumentProblem) return [{ path: error.path, message: error.message }];
      throw error;
    }
    const problems: PluginEntryProblem[] = [];
    const all = operationsOf(loaded.document);
    const ids = new Set(all.map((operation) => operation.id));
    for (const [index, id] of (config.operations ?? []).entries()) {
      if (!ids.has(id))
        problems.push({ path: `/config/operations/${index}`, message: `is not an operation of the document` });
    }
    const chosen = chosenOperations(config, loaded);
    if (chosen.length === 0) {
      const skipped = all.filter((operation) => !isCallable(operation));
      const why = skipped.map((operation) => `${operation.id}: ${'reason' in operation ? operation.reason : ''}`);
      problems.push({
        path: config.operations ? '/config/operations' : config.url !== undefined ? '/config/url' : '/config/document',
        message: `leaves no operation that can be called${why.length > 0 ? ` (${why.slice(0, 3).join('; ')})` : ''}`,
      });
    } else if (config.operations === undefined && all.filter(isCallable).length > maxOperations) {
      problems.push({
        path: '/config/operations',
        message: `is needed: the document has more than ${maxOperations} operations; list those the model may call`,
      });
    }
    const schemes = new Set(securitySchemeNames(loaded.document));
    for (const name of secretNames) {
      if (!schemes.has(name)) {
        problems.push({
          path: `/secrets/${pointerToken(name)}`,
          message: `is not a security scheme of the document (${[...schemes].join(', ') || 'it has none'})`,
        });
      }
    }
    return problems;
  },
};

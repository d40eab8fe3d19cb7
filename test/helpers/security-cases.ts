import { operationsOf, type JsonSchema } from '../fuzz/openapi-operations.js';
import { scopes, type Scope } from '../../src/services/context.js';

/**
 * The cases of the shared security suite, read from the OpenAPI document: a
 * route added later is checked for keys, scopes and other accounts' ids
 * without anyone adding a row for it.
 */
export interface SecurityCase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path template, e.g. `/v1/agents/{agentId}`. */
  path: string;
  label: string;
  /** The published `x-scope`; null: any valid key may call it. */
  scope: Scope | null;
  /** Names of the path parameters, filled with own, foreign or missing resources by name. */
  pathParameters: string[];
  body?: unknown;
  /** A query string the operation needs to be valid, with its `?`. */
  query: string;
}

/**
 * What the schema alone cannot tell: a valid request needs one of two optional
 * query parameters, or a body whose required fields are not enough.
 */
const overrides: Record<string, Partial<Pick<SecurityCase, 'body' | 'query'>>> = {
  'DELETE /v1/agents/{agentId}/conversations': { query: '?userId=probe' },
  // A target that never resolves (RFC 2606): accepted, and nothing is sent anywhere.
  'POST /v1/webhooks': { body: { url: 'https://hooks.invalid/agentd', events: ['message.failed'] } },
  // A document needs content (or a URL), which the schema cannot require of a body that also takes a URL.
  'POST /v1/knowledge-bases/{knowledgeBaseId}/documents': { body: { title: 'probe', content: 'probe document' } },
  'GET /v1/agents/{agentId}/memory': { query: '?userId=probe' },
  'POST /v1/agents/{agentId}/tasks': {
    body: { name: 'probe', instructions: 'probe', schedule: { everySeconds: 3600 } },
  },
  'PATCH /v1/agents/{agentId}/memory': { query: '?userId=probe' },
  // The suite gives its own agents an x platform: a post of their own.
  'POST /v1/agents/{agentId}/platforms/{type}/posts': { body: { text: 'probe', target: 'timeline' } },
  // The suite creates an agent named so in the caller's account.
  'POST /v1/chat/completions': {
    body: { model: 'agent:Probe target', messages: [{ role: 'user', content: 'hello' }] },
  },
  // A JSON-RPC message of MCP: the smallest is a ping.
  'POST /v1/mcp': { body: { jsonrpc: '2.0', id: 1, method: 'ping' } },
  // A change needs at least one field.
  'PATCH /v1/eval-datasets/{datasetId}': { body: { name: 'probe' } },
};

/** The smallest value the schema accepts, from its required fields only. */
export function minimalValue(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) return minimalValue(alternatives[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties: Record<string, JsonSchema> = schema.properties ?? {};
      const required: string[] = schema.required ?? [];
      return Object.fromEntries(required.map((name) => [name, minimalValue(properties[name] ?? {})]));
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => minimalValue(schema.items ?? {}));
    case 'string': {
      const length = Math.max(schema.minLength ?? 1, 5);
      return 'probe'.padEnd(length, 'e').slice(0, schema.maxLength ?? length);
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}

function queryOf(parameters: Array<{ name: string; required: boolean; schema: JsonSchema }>): string {
  const required = parameters.filter((parameter) => parameter.required);
  if (required.length === 0) return '';
  const search = new URLSearchParams(
    required.map((parameter): [string, string] => [parameter.name, String(minimalValue(parameter.schema))]),
  );
  return `?${search}`;
}

function isScope(value: unknown): value is Scope {
  return (scopes as readonly unknown[]).includes(value);
}

/** Every authenticated `/v1` operation of the document, or an error naming one without a published scope. */
export function securityCasesOf(document: any): SecurityCase[] {
  return operationsOf(document)
    .filter((operation) => operation.authenticated && operation.path.startsWith('/v1/'))
    .map((operation) => {
      const published = document.paths[operation.path][operation.method.toLowerCase()]['x-scope'];
      if (published !== null && !isScope(published)) {
        throw new Error(`${operation.label} publishes no x-scope (got ${JSON.stringify(published)})`);
      }
      const override = overrides[operation.label] ?? {};
      const body = operation.body?.required ? minimalValue(operation.body.schema) : undefined;
      return {
        method: operation.method as SecurityCase['method'],
        path: operation.path,
        label: operation.label,
        scope: published,
        pathParameters: operation.pathParameters.map((parameter) => parameter.name),
        query: override.query ?? queryOf(operation.queryParameters),
        ...(override.body !== undefined || body !== undefined ? { body: override.body ?? body } : {}),
      };
    });
}

import type { OpenApiDocument } from './document.js';
import { toolSchema } from './input-schema.js';

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
/** What providers accept for a tool name, and for a description. */
const toolNameLimit = 64;
const descriptionLimit = 1024;

export type ParameterLocation = 'path' | 'query' | 'header';

/** One parameter as the model gives it (`key` in the tool's input) and as the request carries it. */
export interface OperationParameter {
  key: string;
  name: string;
  in: ParameterLocation;
  required: boolean;
  style: string;
  explode: boolean;
  /** Sent as JSON text (a parameter described by `content` rather than `schema`). */
  asJson: boolean;
}

/** One operation of the document that can become a tool. */
export interface Operation {
  /** The operationId, or `<method> <path>` when the document gives none. */
  id: string;
  method: string;
  /** The path template, e.g. /pets/{petId}. */
  path: string;
  parameters: OperationParameter[];
  /** The key of the JSON body in the tool's input, when the operation takes one. */
  bodyKey: string | null;
  bodyContentType: string | null;
  /** The security requirements that apply (the operation's own, else the document's). */
  security: Array<Record<string, unknown>>;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** Why an operation of the document cannot become a tool. */
export interface SkippedOperation {
  id: string;
  reason: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const isJsonMediaType = (type: string) => {
  const media = type.split(';')[0]!.trim().toLowerCase();
  return media === 'application/json' || media.endsWith('+json');
};

/** Parameters of the path item and of the operation, the operation's winning (OpenAPI: same name and location). */
function mergedParameters(pathItem: Record<string, unknown>, operation: Record<string, unknown>) {
  const byIdentity = new Map<string, Record<string, unknown>>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const parameter of list) {
      if (isObject(parameter) && typeof parameter.name === 'string' && typeof parameter.in === 'string') {
        byIdentity.set(`${parameter.in}:${parameter.name}`, parameter);
      }
    }
  }
  return [...byIdentity.values()];
}

/** Header parameters OpenAPI says are ignored: the request's framing and authentication set them. */
const ignoredHeaders = new Set(['accept', 'content-type', 'authorization']);

function describe(method: string, path: string, operation: Record<string, unknown>): string {
  const parts = [operation.summary, operation.description]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map((part) => part.trim());
  if (parts.length === 2 && parts[1]!.startsWith(parts[0]!)) parts.shift();
  const text = `${method.toUpperCase()} ${path}${parts.length > 0 ? `: ${parts.join('\n\n')}` : ''}`;
  return text.length > descriptionLimit ? `${text.slice(0, descriptionLimit - 1)}…` : text;
}

function operationFrom(
  document: OpenApiDocument,
  method: string,
  path: string,
  pathItem: Record<string, unknown>,
  operation: Record<string, unknown>,
): Operation | SkippedOperation {
  const id = typeof operation.operationId === 'string' ? operation.operationId : `${method} ${path}`;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const parameters: OperationParameter[] = [];
  for (const parameter of mergedParameters(pathItem, operation)) {
    const name = parameter.name as string;
    const location = parameter.in as string;
    const isRequired = location === 'path' || parameter.required === true;
    if (location === 'cookie' || (location === 'header' && ignoredHeaders.has(name.toLowerCase()))) {
      if (isRequired && location === 'cookie') return { id, reason: `it needs the cookie parameter ${name}` };
      continue;
    }
    if (location !== 'path' && location !== 'query' && location !== 'header') continue;
    const content = isObject(parameter.content) ? parameter.content : null;
    const jsonContent = content ? Object.entries(content).find(([type]) => isJsonMediaType(type)) : undefined;
    const schema = toolSchema(isObject(parameter.schema) ? parameter.schema : (jsonContent?.[1] as any)?.schema);
    if (typeof parameter.description === 'string' && schema.description === undefined) {
      schema.description = parameter.description;
    }
    const key = name in properties || name === 'body' ? `${location}_${name}` : name;
    properties[key] = schema;
    if (isRequired) required.push(key);
    const style = typeof parameter.style === 'string' ? parameter.style : location === 'query' ? 'form' : 'simple';
    parameters.push({
      key,
      name,
      in: location,
      required: isRequired,
      style,
      explode: typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form',
      asJson: jsonContent !== undefined && !isObject(parameter.schema),
    });
  }

  let bodyKey: string | null = null;
  let bodyContentType: string | null = null;
  const requestBody = isObject(operation.requestBody) ? operation.requestBody : null;
  if (requestBody) {
    const content = isObject(requestBody.content) ? requestBody.content : {};
    const json = Object.entries(content).find(([type]) => isJsonMediaType(type));
    if (json !== undefined) {
      bodyKey = 'body' in properties ? 'requestBody' : 'body';
      bodyContentType = json[0].split(';')[0]!.trim();
      const schema = toolSchema(isObject(json[1]) ? json[1].schema : undefined);
      if (typeof requestBody.description === 'string' && schema.description === undefined) {
        schema.description = requestBody.description;
      }
      properties[bodyKey] = schema;
      if (requestBody.required === true) required.push(bodyKey);
    } else if (requestBody.required === true) {
      return { id, reason: `its request body is not JSON (${Object.keys(content).join(', ') || 'no content'})` };
    }
  }

  const security = Array.isArray(operation.security)
    ? operation.security
    : Array.isArray(document.security)
      ? document.security
      : [];
  return {
    id,
    method: method.toUpperCase(),
    path,
    parameters,
    bodyKey,
    bodyContentType,
    security: security.filter(isObject),
    description: describe(method, path, operation),
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    },
  };
}

/** Every operation of the document, in its order, or why one cannot be called. */
export function operationsOf(document: OpenApiDocument): Array<Operation | SkippedOperation> {
  const found: Array<Operation | SkippedOperation> = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isObject(pathItem)) continue;
    for (const method of methods) {
      const operation = pathItem[method];
      if (isObject(operation)) found.push(operationFrom(document, method, path, pathItem, operation));
    }
  }
  return found;
}

export function isCallable(operation: Operation | SkippedOperation): operation is Operation {
  return 'method' in operation;
}

/**
 * Tool names for the operations: the operationId (or method and path) with
 * every character providers refuse replaced by `_`, after the prefix, cut to
 * 64 characters, and numbered when two come out the same.
 */
export function toolNames(ids: readonly string[], prefix: string | undefined): string[] {
  const taken = new Set<string>();
  return ids.map((id) => {
    const base = `${prefix ? `${prefix}_` : ''}${id}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, toolNameLimit);
    let name = base;
    for (let number = 2; taken.has(name); number += 1) {
      const suffix = `_${number}`;
      name = `${base.slice(0, toolNameLimit - suffix.length)}${suffix}`;
    }
    taken.add(name);
    return name;
  });
}

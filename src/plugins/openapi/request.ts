import type { RedirectableRequest } from '../../outbound/redirects.js';
import { ToolError } from '../plugin.js';
import type { Operation, OperationParameter } from './operations.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A path or header value, in OpenAPI's `simple` style (the default for both). */
function simple(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(text).join(',');
  if (isObject(value)) {
    return Object.entries(value)
      .map(([key, item]) => (explode ? `${key}=${text(item)}` : `${key},${text(item)}`))
      .join(',');
  }
  return text(value);
}

/** Query pairs of one parameter in its style: form (exploded or not), spaceDelimited, pipeDelimited, deepObject. */
function queryPairs(parameter: OperationParameter, value: unknown): Array<[string, string]> {
  if (parameter.asJson) return [[parameter.name, JSON.stringify(value)]];
  if (Array.isArray(value)) {
    if (parameter.explode) return value.map((item) => [parameter.name, text(item)]);
    const separator = parameter.style === 'spaceDelimited' ? ' ' : parameter.style === 'pipeDelimited' ? '|' : ',';
    return [[parameter.name, value.map(text).join(separator)]];
  }
  if (isObject(value)) {
    if (parameter.style === 'deepObject') {
      return Object.entries(value).map(([key, item]) => [`${parameter.name}[${key}]`, text(item)]);
    }
    if (parameter.explode) return Object.entries(value).map(([key, item]) => [key, text(item)]);
    return [[parameter.name, Object.entries(value).flat().map(text).join(',')]];
  }
  return [[parameter.name, text(value)]];
}

/**
 * The request for one call of an operation: the path filled in, the query
 * and headers set from the model's input, the JSON body. Credentials are not
 * part of it (see security.ts). The input matched the tool's schema before
 * the call; what the schema cannot say (a path value that empties the
 * segment) is a ToolError the model reads.
 */
export function requestFor(operation: Operation, base: URL, input: unknown): RedirectableRequest {
  const values = isObject(input) ? input : {};
  let path = operation.path;
  const query: Array<[string, string]> = [];
  const headers = new Headers({ accept: 'application/json, text/*;q=0.9, */*;q=0.1' });
  for (const parameter of operation.parameters) {
    const value = values[parameter.key];
    if (value === undefined || value === null) {
      if (parameter.required) throw new ToolError(`Missing the ${parameter.in} parameter ${parameter.key}.`);
      continue;
    }
    if (parameter.in === 'path') {
      const segment = parameter.asJson ? JSON.stringify(value) : simple(value, parameter.explode);
      if (segment === '') throw new ToolError(`The path parameter ${parameter.key} must not be empty.`);
      path = path.replaceAll(`{${parameter.name}}`, encodeURIComponent(segment));
    } else if (parameter.in === 'query') {
      query.push(...queryPairs(parameter, value));
    } else {
      try {
        headers.set(parameter.name, parameter.asJson ? JSON.stringify(value) : simple(value, parameter.explode));
      } catch {
        throw new ToolError(`The header parameter ${parameter.key} is not a valid HTTP header value.`);
      }
    }
  }
  const url = new URL(base);
  url.pathname = `${base.pathname.replace(/\/$/, '')}${path}`;
  for (const [name, value] of query) url.searchParams.append(name, value);

  let body: Uint8Array | null = null;
  if (operation.bodyKey !== null && values[operation.bodyKey] !== undefined) {
    if (operation.method === 'GET' || operation.method === 'HEAD') {
      throw new ToolError(`A ${operation.method} request cannot carry a body.`);
    }
    body = Buffer.from(JSON.stringify(values[operation.bodyKey]));
    headers.set('content-type', operation.bodyContentType ?? 'application/json');
  }
  return { url, method: operation.method, headers, body };
}

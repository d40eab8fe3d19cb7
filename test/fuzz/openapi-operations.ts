/**
 * The operations of a running server, read from its own OpenAPI document so
 * that a route added later is fuzzed without touching the fuzzer.
 */

export type JsonSchema = Record<string, any>;

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** The path template, e.g. `/v1/agents/{agentId}`. */
  path: string;
  /** `GET /v1/agents/{agentId}`: how counts and failures name it. */
  label: string;
  pathParameters: Parameter[];
  queryParameters: Parameter[];
  headerParameters: Parameter[];
  body: { schema: JsonSchema; contentTypes: string[]; required: boolean } | null;
  /** Whether the document asks for a bearer key (operations endpoints opt out with `security: []`). */
  authenticated: boolean;
}

/** Replaces `$ref`s into `components.schemas` with the schema itself (the document has no cycles). */
function resolveReferences(value: unknown, components: Record<string, JsonSchema>, depth = 0): any {
  if (depth > 50) throw new Error('the OpenAPI document nests deeper than expected (a cyclic $ref?)');
  if (Array.isArray(value)) return value.map((item) => resolveReferences(item, components, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$ref === 'string') {
    const name = record.$ref.split('/').pop() as string;
    const target = components[name];
    if (!target) throw new Error(`unresolved $ref ${record.$ref}`);
    return resolveReferences(target, components, depth + 1);
  }
  return Object.fromEntries(
    Object.entries(record).map(([key, item]) => [key, resolveReferences(item, components, depth + 1)]),
  );
}

export function operationsOf(document: any): Operation[] {
  const components: Record<string, JsonSchema> = document.components?.schemas ?? {};
  const globalSecurity: unknown[] = document.security ?? [];
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    for (const [method, rawOperation] of Object.entries<any>(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const operation = resolveReferences(rawOperation, components);
      const parameters: Array<Parameter & { in: string }> = (operation.parameters ?? []).map((parameter: any) => ({
        in: parameter.in,
        name: parameter.name,
        required: parameter.required === true,
        schema: parameter.schema ?? {},
      }));
      const content: Record<string, { schema?: JsonSchema }> = operation.requestBody?.content ?? {};
      const contentTypes = Object.keys(content);
      const security: unknown[] = operation.security ?? globalSecurity;
      operations.push({
        method: method.toUpperCase(),
        path,
        label: `${method.toUpperCase()} ${path}`,
        pathParameters: parameters.filter((parameter) => parameter.in === 'path'),
        queryParameters: parameters.filter((parameter) => parameter.in === 'query'),
        headerParameters: parameters.filter((parameter) => parameter.in === 'header'),
        body: contentTypes.length
          ? {
              schema: content[contentTypes[0] as string]?.schema ?? {},
              contentTypes,
              required: operation.requestBody?.required === true,
            }
          : null,
        authenticated: security.length > 0,
      });
    }
  }
  return operations;
}

export async function fetchOperations(baseUrl: string): Promise<Operation[]> {
  const response = await fetch(`${baseUrl}/v1/openapi.json`);
  if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  return operationsOf(await response.json());
}

/**
 * JSON Schemas of an OpenAPI document made into what a tool's input schema
 * may hold: a tree (a cycle is cut where it comes back, and the depth is
 * bounded), OpenAPI 3.0's `nullable` said the JSON Schema way, read-only
 * properties left out of what is sent, and keywords that describe documents
 * rather than values (xml, externalDocs, discriminator, example) dropped.
 */

/** Levels of nested schemas kept; below, any value is accepted. Real request shapes are far shallower. */
const maxDepth = 16;
const dropped = new Set(['xml', 'externalDocs', 'discriminator', 'example', 'nullable', '$schema', '$id']);
/** Keywords whose value is a map of names to schemas. */
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function withNull(type: unknown): unknown {
  if (typeof type === 'string') return type === 'null' ? type : [type, 'null'];
  if (Array.isArray(type)) return type.includes('null') ? type : [...type, 'null'];
  return type;
}

function convert(node: unknown, ancestors: Set<object>, depth: number): unknown {
  if (Array.isArray(node)) return node.map((item) => convert(item, ancestors, depth));
  if (!isObject(node)) return node;
  // A reference left in place points outside the document, and a cycle would never end: both accept anything.
  if (ancestors.has(node) || depth > maxDepth || typeof node.$ref === 'string') return {};
  ancestors.add(node);
  const result: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (dropped.has(keyword)) continue;
    if (schemaMaps.has(keyword) && isObject(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, schema] of Object.entries(value)) {
        // What the server sets itself is not the caller's to send.
        if (keyword === 'properties' && isObject(schema) && schema.readOnly === true) continue;
        map[name] = convert(schema, ancestors, depth + 1);
      }
      result[keyword] = map;
    } else if (keyword === 'enum' || keyword === 'const' || keyword === 'default' || keyword === 'examples') {
      result[keyword] = value;
    } else {
      result[keyword] = convert(value, ancestors, depth + 1);
    }
  }
  if (node.nullable === true && result.type !== undefined) result.type = withNull(result.type);
  if (Array.isArray(result.required) && isObject(result.properties)) {
    const properties = result.properties;
    const required = result.required.filter((name) => typeof name === 'string' && name in properties);
    if (required.length > 0) result.required = required;
    else delete result.required;
  }
  ancestors.delete(node);
  return result;
}

/** A document's schema as a tool's input schema may hold it. */
export function toolSchema(schema: unknown): Record<string, unknown> {
  const converted = convert(schema ?? {}, new Set(), 0);
  return isObject(converted) ? converted : {};
}

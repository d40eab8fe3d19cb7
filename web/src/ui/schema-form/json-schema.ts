/**
 * The part of JSON Schema the server publishes for plugin configs and
 * platform settings (GET /v1/plugins, GET /v1/platforms), read into a form:
 * what kind of control each node gets, the draft the control edits, and the
 * JSON sent back. Anything the form cannot show as controls falls back to a
 * JSON text box, so no setting is ever out of reach.
 */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export type Kind = 'object' | 'map' | 'array' | 'enum' | 'string' | 'text' | 'number' | 'boolean' | 'json';

/** A map's entries are edited as pairs: two rows may briefly share a key (or have none) while being typed. */
export interface Pair {
  key: string;
  value: Draft;
}

/**
 * What a control edits: objects as records, maps as pairs, arrays as lists,
 * numbers as the text typed (a value that is not a number is sent as typed,
 * so the server's message lands at its field), JSON as text.
 */
export type Draft = string | boolean | Draft[] | Pair[] | { [name: string]: Draft };

/** Texts longer than this get a text area. */
const longText = 2000;

const choicesOf = (schema: JsonSchema): unknown[] | null => {
  if (Array.isArray(schema.enum)) return schema.enum;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length && branches.every((branch) => 'const' in branch)) return branches.map((branch) => branch.const);
  return null;
};

/** The schema a control is made from: a choice of constants becomes an enum, "text or object" becomes text. */
export function resolve(schema: JsonSchema): JsonSchema {
  const choices = choicesOf(schema);
  if (choices) return { ...schema, anyOf: undefined, oneOf: undefined, enum: choices };
  const branches = schema.anyOf ?? schema.oneOf;
  const text = branches?.find((branch) => branch.type === 'string');
  if (text) {
    // The text branch covers what a person types (e.g. an OpenAPI document as JSON or YAML).
    return { ...text, description: schema.description, default: schema.default, maxLength: Infinity };
  }
  return schema;
}

export function kindOf(schema: JsonSchema): Kind {
  const resolved = resolve(schema);
  if (resolved.enum) return 'enum';
  if (resolved.anyOf || resolved.oneOf) return 'json';
  switch (resolved.type) {
    case 'object':
      if (resolved.properties && Object.keys(resolved.properties).length > 0) return 'object';
      if (resolved.patternProperties || typeof resolved.additionalProperties === 'object') return 'map';
      return resolved.additionalProperties === false ? 'object' : 'json';
    case 'array':
      return resolved.items ? 'array' : 'json';
    case 'string':
      return (resolved.maxLength ?? 0) > longText ? 'text' : 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'json';
  }
}

/** The schema of a map's values. */
export function valueSchemaOf(schema: JsonSchema): JsonSchema {
  const patterns = Object.values(schema.patternProperties ?? {});
  if (patterns[0]) return patterns[0];
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The draft of a stored value, or of the schema's defaults where nothing is stored. */
export function draftOf(schema: JsonSchema, value: unknown): Draft {
  const resolved = resolve(schema);
  const given = value === undefined ? resolved.default : value;
  switch (kindOf(schema)) {
    case 'object': {
      const record = isRecord(given) ? given : {};
      return Object.fromEntries(
        Object.entries(resolved.properties ?? {}).map(([name, property]) => [name, draftOf(property, record[name])]),
      );
    }
    case 'map': {
      const values = valueSchemaOf(resolved);
      return Object.entries(isRecord(given) ? given : {}).map(([key, item]) => ({ key, value: draftOf(values, item) }));
    }
    case 'array':
      return (Array.isArray(given) ? given : []).map((item) => draftOf(resolved.items ?? {}, item));
    case 'boolean':
      return given === true;
    case 'json':
      return given === undefined ? '' : JSON.stringify(given, null, 2);
    default:
      if (given === undefined || given === null) return '';
      return typeof given === 'string'
        ? given
        : typeof given === 'object'
          ? JSON.stringify(given, null, 2)
          : `${given}`;
  }
}

export interface DraftProblem {
  path: string;
  message: string;
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && !Object.keys(value).length);

/** RFC 6901: `~` and `/` in a key are escaped in a JSON pointer. */
export const pointerOf = (base: string, key: string | number) =>
  `${base}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * The JSON a draft stands for; undefined when it is empty (an optional field
 * left blank is left out, so the server applies its default). Text the form
 * cannot read (JSON) is reported in `problems` at its pointer.
 */
export function valueOf(schema: JsonSchema, draft: Draft, pointer: string, problems: DraftProblem[]): unknown {
  const resolved = resolve(schema);
  switch (kindOf(schema)) {
    case 'object': {
      const record = isRecord(draft) ? (draft as Record<string, Draft>) : {};
      const required = new Set(resolved.required ?? []);
      const result: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(resolved.properties ?? {})) {
        const item = record[name];
        if (item === undefined) continue;
        const value = valueOf(property, item, pointerOf(pointer, name), problems);
        // A required list or object is sent even when empty, so the server names what it lacks.
        if (value !== undefined && (!isEmpty(value) || required.has(name))) result[name] = value;
      }
      return result;
    }
    case 'map': {
      const values = valueSchemaOf(resolved);
      const result: Record<string, unknown> = {};
      for (const pair of Array.isArray(draft) ? (draft as Pair[]) : []) {
        if (pair.key.trim() === '') continue;
        result[pair.key.trim()] = valueOf(values, pair.value, pointerOf(pointer, pair.key.trim()), problems) ?? '';
      }
      return isEmpty(result) ? undefined : result;
    }
    case 'array': {
      const items = (Array.isArray(draft) ? (draft as Draft[]) : [])
        .map((item, index) => valueOf(resolved.items ?? {}, item, pointerOf(pointer, index), problems))
        .filter((item) => item !== undefined);
      return items;
    }
    case 'boolean':
      return draft === true;
    case 'number': {
      const text = String(draft).trim();
      if (text === '') return undefined;
      const number = Number(text);
      return Number.isFinite(number) ? number : text;
    }
    case 'json': {
      const text = String(draft).trim();
      if (text === '') return undefined;
      try {
        return JSON.parse(text);
      } catch {
        problems.push({ path: pointer, message: 'is not valid JSON' });
        return undefined;
      }
    }
    default:
      return String(draft) === '' ? undefined : String(draft);
  }
}

/** Every pointer the form shows a control (or a group) for, so the server's errors find their place. */
export function pointersOf(schema: JsonSchema, draft: Draft, pointer: string): string[] {
  const resolved = resolve(schema);
  switch (kindOf(schema)) {
    case 'object': {
      const record = isRecord(draft) ? (draft as Record<string, Draft>) : {};
      return [
        pointer,
        ...Object.entries(resolved.properties ?? {}).flatMap(([name, property]) =>
          pointersOf(property, record[name] ?? '', pointerOf(pointer, name)),
        ),
      ];
    }
    case 'map': {
      const values = valueSchemaOf(resolved);
      return [
        pointer,
        ...(draft as Pair[]).flatMap((pair) => pointersOf(values, pair.value, pointerOf(pointer, pair.key.trim()))),
      ];
    }
    case 'array':
      return [
        pointer,
        ...(draft as Draft[]).flatMap((item, index) =>
          pointersOf(resolved.items ?? {}, item, pointerOf(pointer, index)),
        ),
      ];
    default:
      return [pointer];
  }
}

const words: Record<string, string> = { url: 'URL', id: 'ID', ids: 'IDs', ms: '(ms)', rpc: 'RPC', api: 'API' };

/** `allowedHosts` reads "Allowed hosts", `rpcUrl` "RPC URL". */
export function labelOf(name: string): string {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((part) => words[part.toLowerCase()] ?? part.toLowerCase());
  const text = parts.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a control's hint says beyond the description: bounds and the default. */
export function boundsOf(schema: JsonSchema): string {
  const resolved = resolve(schema);
  const notes: string[] = [];
  if (resolved.minimum !== undefined && resolved.maximum !== undefined)
    notes.push(`${resolved.minimum}–${resolved.maximum}`);
  else if (resolved.minimum !== undefined) notes.push(`at least ${resolved.minimum}`);
  else if (resolved.maximum !== undefined) notes.push(`at most ${resolved.maximum}`);
  if (resolved.default !== undefined && typeof resolved.default !== 'object')
    notes.push(`default ${String(resolved.default)}`);
  return notes.length ? ` (${notes.join(', ')})` : '';
}

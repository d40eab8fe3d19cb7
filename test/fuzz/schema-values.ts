import fc from 'fast-check';
import {
  boundaryNumber,
  deeplyNested,
  extraKey,
  hostileShortString,
  hugeString,
  oddNumberText,
  wrongTypeValue,
} from './hostile-values.js';
import type { JsonSchema } from './openapi-operations.js';

/**
 * Arbitraries derived from a JSON schema (the subset TypeBox emits): values
 * that pass it, and values that pass it except in one place. Arrays and
 * free-form objects stay small in valid values so that each request is cheap
 * and the mutations, not the sizes, decide what is tested.
 */

const smallestCollections = 3;

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties) return ['object'];
  return [];
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength: number = schema.minLength ?? 0;
  const maxLength: number = schema.maxLength ?? 200;
  const fits = (text: string) => text.length >= minLength && text.length <= maxLength;
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    return fc
      .oneof(
        fc.stringMatching(pattern).filter(fits),
        // Most patterns here accept plain letters; the filter keeps the ones that do not honest.
        fc.string({ unit: fc.constantFrom('a', 'b', 'z', '0', '_'), minLength: Math.max(minLength, 1), maxLength: 8 }),
      )
      .map((text) => (text.length > 0 && /^[0-9_]/.test(text) ? `a${text.slice(1)}` : text))
      .filter((text) => fits(text) && pattern.test(text));
  }
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength, 40) }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength, maxLength: Math.min(maxLength, 20) }) },
    // Exactly at the bound: the longest value the contract accepts.
    { weight: 1, arbitrary: fc.constant('x'.repeat(Math.max(maxLength, minLength))) },
  );
}

function validNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000_000);
  if (integer) return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
  return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(min, max));
}

function validObject(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required: string[] = schema.required ?? [];
  const names = Object.keys(properties);
  if (names.length) {
    const record = fc.record(
      Object.fromEntries(names.map((name) => [name, validValue(properties[name] as JsonSchema, depth + 1)])),
      { requiredKeys: required.filter((name) => names.includes(name)) },
    );
    return record as fc.Arbitrary<Record<string, unknown>>;
  }
  const additional = schema.additionalProperties;
  if (additional && typeof additional === 'object' && Object.keys(additional).length) {
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), validValue(additional, depth + 1), {
      maxKeys: Math.min(schema.maxProperties ?? smallestCollections, smallestCollections),
    });
  }
  return fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: smallestCollections });
}

export function validValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  // A value the document gives as an example is valid beyond what a schema can say (a cron expression, a time
  // zone): drawn often enough that such operations get past validation, the schema's values otherwise.
  if (Array.isArray(schema.examples) && schema.examples.length > 0) {
    const { examples, ...rest } = schema;
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...(examples as unknown[])) },
      { weight: 1, arbitrary: validValue(rest, depth) },
    );
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const branches: JsonSchema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => validValue(branch, depth)));
  const types = typesOf(schema);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return validString(schema);
        case 'integer':
          return validNumber(schema, true);
        case 'number':
          return validNumber(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          const item = validValue(schema.items ?? {}, depth + 1);
          const constraints = {
            minLength: schema.minItems ?? 0,
            maxLength: Math.min(schema.maxItems ?? smallestCollections, Math.max(schema.minItems ?? 0, 3)),
          };
          return schema.uniqueItems
            ? fc.uniqueArray(item, { ...constraints, selector: (value) => JSON.stringify(value) })
            : fc.array(item, constraints);
        }
        case 'object':
          return validObject(schema, depth);
        default:
          return fc.jsonValue({ maxDepth: 1 });
      }
    }),
  );
}

function mutatedString(schema: JsonSchema): fc.Arbitrary<unknown> {
  const maxLength: number | undefined = schema.maxLength;
  const minLength: number = schema.minLength ?? 0;
  const boundaries = [
    ...(maxLength !== undefined ? ['x'.repeat(maxLength + 1), '\u{1f600}'.repeat(maxLength)] : []),
    'x'.repeat(Math.max(0, minLength - 1)),
  ];
  return fc.oneof(hostileShortString, hugeString, fc.constantFrom(...boundaries));
}

function mutatedNumber(schema: JsonSchema): fc.Arbitrary<unknown> {
  const bounds = [schema.minimum, schema.maximum].filter((bound): bound is number => typeof bound === 'number');
  return fc.oneof(
    boundaryNumber,
    oddNumberText,
    fc.constantFrom(...bounds.flatMap((bound) => [bound - 1, bound + 1, bound + 0.5]), 1.5, String(bounds[0] ?? 1)),
  );
}

function mutatedObject(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const names = Object.keys(properties);
  const required: string[] = schema.required ?? [];
  const valid = validObject(schema, depth);
  const options: fc.Arbitrary<unknown>[] = [
    // One field more than the schema allows, sometimes one that reaches the prototype.
    fc.tuple(valid, extraKey, wrongTypeValue).map(([value, key, extra]) => {
      const copy: Record<string, unknown> = { ...value };
      Object.defineProperty(copy, key, { value: extra, enumerable: true, configurable: true, writable: true });
      return copy;
    }),
    // Deep nesting where the schema allows anything, and where it does not.
    fc
      .tuple(valid, fc.constantFrom(...(names.length ? names : ['nested'])), deeplyNested)
      .map(([value, key, deep]) => ({
        ...value,
        [key]: deep,
      })),
    // Many keys: past maxProperties, or just many.
    fc
      .constantFrom(100, 1_000, 20_000)
      .map((count) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, 'v']))),
  ];
  if (required.length) {
    options.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([value, missing]) => {
        const copy = { ...value };
        delete copy[missing];
        return copy;
      }),
    );
  }
  if (names.length) {
    options.push(
      fc
        .constantFrom(...names)
        .chain((name) => fc.tuple(valid, fc.constant(name), mutatedValue(properties[name] as JsonSchema, depth + 1)))
        .map(([value, name, mutated]) => ({ ...value, [name]: mutated })),
    );
  }
  const additional = schema.additionalProperties;
  if (additional && typeof additional === 'object' && Object.keys(additional).length) {
    options.push(
      fc
        .tuple(valid, extraKey, mutatedValue(additional, depth + 1))
        .map(([value, key, mutated]) => ({ ...value, [key]: mutated })),
    );
  }
  return fc.oneof(...options);
}

function mutatedArray(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const item: JsonSchema = schema.items ?? {};
  const maxItems: number = schema.maxItems ?? 100;
  return fc.oneof(
    validValue(item, depth + 1).map((value) => Array.from({ length: maxItems + 1 }, () => value)),
    // Many items, each small: a large valid-looking value would make one request hundreds of megabytes.
    fc.constantFrom(1, 'a', null).map((value) => Array.from({ length: 10_001 }, () => value)),
    fc.array(mutatedValue(item, depth + 1), { minLength: 1, maxLength: 3 }),
    deeplyNested,
  );
}

/** A value the schema rejects in one place (or, now and then, one it accepts). */
export function mutatedValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return wrongTypeValue;
  const types = typesOf(schema);
  const branches: JsonSchema[] | undefined = schema.anyOf ?? schema.oneOf;
  const specific: fc.Arbitrary<unknown>[] = [];
  if (branches) specific.push(...branches.map((branch) => mutatedValue(branch, depth + 1)));
  if (Array.isArray(schema.enum)) {
    specific.push(
      fc.constantFrom(
        ...schema.enum.map((value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value)),
      ),
      fc.constantFrom('error', 'unknown', ''),
    );
  }
  for (const type of types) {
    if (type === 'string') specific.push(mutatedString(schema));
    if (type === 'integer' || type === 'number') specific.push(mutatedNumber(schema));
    if (type === 'object') specific.push(mutatedObject(schema, depth));
    if (type === 'array') specific.push(mutatedArray(schema, depth));
  }
  return fc.oneof(
    { weight: 1, arbitrary: validValue(schema, depth) },
    { weight: 1, arbitrary: wrongTypeValue },
    ...specific.map((arbitrary) => ({ weight: 3, arbitrary })),
  );
}

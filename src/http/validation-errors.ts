import type { ErrorObject } from 'ajv';
import type { FieldError } from '../errors.js';
import { keywordWording, patternWording, typeWording, type Wording } from '../validation-wording.js';

/**
 * Turns Ajv's errors (collected with allErrors) into the contract's `errors[]`:
 * one entry per problem, each with a JSON pointer into the request. Unions are
 * reported as the problem of the branch the value was meant for, or as the list
 * of accepted types, not as Ajv's raw branch-by-branch output.
 */

const partPrefixes: Record<string, string> = {
  body: '/body',
  querystring: '/query',
  params: '/path',
  headers: '/headers',
};

/** Fields of the agent a client can read but not write. */
const readOnlyFields = new Set(['id', 'statusReason', 'createdAt', 'updatedAt']);

function wordingOf(error: ErrorObject): { pointer: string } & Wording {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const pointer = `${error.instancePath}/${escapePointer(name)}`;
      if (error.instancePath === '' && readOnlyFields.has(name))
        return { pointer, code: 'read_only', message: 'is read-only' };
      // A map whose keys follow a pattern (secrets by name): the key is not unknown, it is not in the accepted form.
      const keyPatterns = Object.keys((error.parentSchema?.patternProperties as object | undefined) ?? {});
      if (keyPatterns.length === 1) {
        return {
          pointer,
          code: 'invalid_key',
          message: `is not an accepted key: it ${patternWording(keyPatterns[0]!).message}`,
        };
      }
      return { pointer, ...keywordWording('additionalProperties', name) };
    }
    case 'required':
      return {
        pointer: `${error.instancePath}/${escapePointer(String(params.missingProperty))}`,
        ...keywordWording('required', undefined),
      };
    case 'propertyNames':
      return {
        pointer: error.instancePath,
        code: 'invalid_key',
        message: `has an invalid key "${String(params.propertyName)}"`,
      };
    case 'type':
      return { pointer: error.instancePath, ...typeWording([String(params.type)]) };
    case 'enum':
      return { pointer: error.instancePath, ...keywordWording('enum', params.allowedValues) };
    case 'const':
      return { pointer: error.instancePath, ...keywordWording('const', params.allowedValue) };
    case 'pattern':
      return { pointer: error.instancePath, ...keywordWording('pattern', params.pattern) };
    case 'format':
      return { pointer: error.instancePath, ...keywordWording('format', params.format) };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties':
      return { pointer: error.instancePath, ...keywordWording(error.keyword, params.limit) };
    case 'multipleOf':
      return { pointer: error.instancePath, ...keywordWording('multipleOf', params.multipleOf) };
    case 'uniqueItems':
      return { pointer: error.instancePath, ...keywordWording('uniqueItems', undefined) };
    default:
      // A keyword written by hand in a union (resolveUnions) carries its own words; anything else is only "invalid".
      return error.keyword === 'union-type'
        ? { pointer: error.instancePath, ...typeWording(params.types as string[]) }
        : { pointer: error.instancePath, ...keywordWording(error.keyword, undefined) };
  }
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Errors of one anyOf, reduced to what the client needs to read. */
function resolveUnions(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((error) => error.keyword === 'anyOf');
  if (unions.length === 0) return errors;
  // Innermost unions first, so an outer union sees its inner ones already resolved.
  unions.sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  let remaining = errors;
  for (const union of unions) {
    const base = union.schemaPath.slice(0, -'/anyOf'.length) + '/anyOf/';
    const branchErrors = new Map<string, ErrorObject[]>();
    for (const error of remaining) {
      if (!error.schemaPath.startsWith(base)) continue;
      const branch = error.schemaPath.slice(base.length).split('/')[0] as string;
      // Appended in place: a union of objects sent thousands of unknown keys has that many errors per branch.
      const list = branchErrors.get(branch);
      if (list === undefined) branchErrors.set(branch, [error]);
      else list.push(error);
    }
    const typeMismatch = (list: ErrorObject[]) =>
      list.some((error) => error.keyword === 'type' && error.instancePath === union.instancePath);
    const matching = [...branchErrors.values()].filter((list) => !typeMismatch(list));
    let replacement: ErrorObject[];
    if (matching.length === 1) {
      replacement = matching[0] as ErrorObject[];
    } else {
      const types = [...branchErrors.values()].flatMap((list) =>
        list
          .filter((error) => error.keyword === 'type')
          .map((error) => String((error.params as { type: string }).type)),
      );
      replacement = [
        types.length
          ? { ...union, keyword: 'union-type', params: { types } }
          : { ...union, keyword: 'invalid', params: {} },
      ];
    }
    remaining = remaining.filter((error) => error !== union && !error.schemaPath.startsWith(base));
    remaining.push(...replacement);
  }
  return remaining;
}

export function fieldErrorsFrom(validation: ErrorObject[], part: string): FieldError[] {
  const prefix = partPrefixes[part] ?? `/${part}`;
  const seen = new Set<string>();
  const fieldErrors: FieldError[] = [];
  for (const error of resolveUnions(validation)) {
    // A key that fails `propertyNames` is reported once, by that keyword, not also as the problem of the key's own schema.
    if (error.propertyName !== undefined && error.keyword !== 'propertyNames') continue;
    const { pointer, code, message } = wordingOf(error);
    const path = `${prefix}${pointer}`;
    const key = `${path} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    fieldErrors.push({ path, code, message });
  }
  return withoutBlankBesideEmpty(fieldErrors);
}

/** An empty string fails both "not empty" and "not blank": saying it is empty is enough. */
function withoutBlankBesideEmpty(errors: FieldError[]): FieldError[] {
  const empty = new Set(errors.filter((error) => error.message === 'must not be empty').map((error) => error.path));
  if (empty.size === 0) return errors;
  return errors.filter((error) => !(error.message === 'must not be blank' && empty.has(error.path)));
}

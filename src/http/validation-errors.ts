import type { ErrorObject } from 'ajv';
import type { FieldError } from '../errors.js';

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

function messageOf(error: ErrorObject): { pointer: string; message: string } {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const readOnly = error.instancePath === '' && readOnlyFields.has(name);
      return {
        pointer: `${error.instancePath}/${escapePointer(name)}`,
        message: readOnly ? 'is read-only' : 'is not a known field',
      };
    }
    case 'required':
      return {
        pointer: `${error.instancePath}/${escapePointer(String(params.missingProperty))}`,
        message: 'is required',
      };
    case 'enum':
      return {
        pointer: error.instancePath,
        message: `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`,
      };
    case 'propertyNames':
      return { pointer: error.instancePath, message: `has an invalid key "${String(params.propertyName)}"` };
    default:
      return { pointer: error.instancePath, message: error.message ?? 'is invalid' };
  }
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function joinTypes(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.length === 1) return unique[0] as string;
  return `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
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
        { ...union, keyword: 'type', message: types.length ? `must be ${joinTypes(types)}` : 'is invalid' },
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
    const { pointer, message } = messageOf(error);
    const path = `${prefix}${pointer}`;
    const key = `${path} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    fieldErrors.push({ path, message });
  }
  return fieldErrors;
}

import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { idPattern, idPrefixes, type IdKind } from './ids.js';

/**
 * The words of every validation problem the API reports, whichever validator
 * found it (Ajv for requests, TypeBox for plugin and platform settings): a
 * sentence that follows the field's name ("name must not be empty") and a
 * stable code a client can branch on. No message holds a raw pattern: a
 * pattern is named by what it accepts (docs/validation-errors.md).
 */

export const fieldErrorCodes = [
  'required',
  'unknown_property',
  'read_only',
  'type',
  'enum',
  'too_short',
  'too_long',
  'too_small',
  'too_large',
  'pattern',
  'not_url',
  'invalid_id',
  'format',
  'not_unique',
  'invalid_key',
  'invalid',
] as const;

export type FieldErrorCode = (typeof fieldErrorCodes)[number];

export interface Wording {
  code: FieldErrorCode;
  message: string;
}

const idKindNames: Record<IdKind, string> = {
  agent: 'an agent',
  message: 'a message',
  account: 'an account',
  apiKey: 'an API key',
  request: 'a request',
  event: 'an event',
  webhook: 'a webhook',
  delivery: 'a delivery',
  knowledgeBase: 'a knowledge base',
  document: 'a document',
  chunk: 'a chunk',
  fact: 'a fact',
  run: 'a run',
  task: 'a task',
  approval: 'an approval',
  file: 'a file',
  evalDataset: 'an eval dataset',
  eval: 'an eval',
};

const notUrl = (message = 'must be an http(s) URL'): Wording => ({ code: 'not_url', message });
const named = (message: string): Wording => ({ code: 'pattern', message });

/**
 * Every pattern of the API's and the plugins' and platforms' schemas, by its
 * source, with the words for a value that does not match it. A unit test walks
 * every published schema and fails on a pattern missing here; one missing at
 * run time still reads "is not in the accepted form", never the expression.
 */
const patternWordings = new Map<string, Wording>([
  ...(Object.keys(idPrefixes) as IdKind[]).map((kind): [string, Wording] => [
    idPattern(kind),
    { code: 'invalid_id', message: `is not ${idKindNames[kind]} id` },
  ]),
  ['\\S', named('must not be blank')],
  ['^[Hh][Tt][Tt][Pp][Ss]?://', notUrl()],
  ['^https?://', notUrl()],
  ['^https?://[^\\s/?#]+[^\\s]*$', notUrl()],
  [
    '^https?://[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.?' +
      '(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?$',
    notUrl('must be an http(s) origin: scheme, host and port, with no path'),
  ],
  [
    '^((\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.?|https?://(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.?' +
      '(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?)$',
    named('must be a host name (or *. and a domain), or an http(s) origin with an optional port'),
  ],
  ['^(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.?$', named('must be a host name, or *. and a domain')],
  ["^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$", named('must be an HTTP header name')],
  [
    '^[A-Za-z][A-Za-z0-9_.-]{0,99}$',
    named('must be a name of up to 100 letters, digits, "_", "." or "-", starting with a letter'),
  ],
  [
    '^[a-z][a-z0-9_-]{0,49}$',
    named('must be a name of up to 50 lowercase letters, digits, "_" or "-", starting with a letter'),
  ],
  [
    '^[a-z][a-z0-9-]{0,49}$',
    named('must be a name of up to 50 lowercase letters, digits or "-", starting with a letter'),
  ],
  [
    '^[A-Za-z0-9@][A-Za-z0-9@/._-]{0,99}$',
    named('must be a name of up to 100 letters, digits, "@", "/", ".", "_" or "-"'),
  ],
  ['^[A-Za-z0-9_-]{1,64}$', named('must be a tool name: 1 to 64 letters, digits, "_" or "-"')],
  [
    '^[a-z0-9][a-z0-9_:. -]*$',
    named('must be lowercase letters, digits, spaces, "_", ":", "." or "-", starting with a letter or digit'),
  ],
  ['^[0-9]{1,9}$', named('must be a whole number of up to 9 digits')],
  ['^[\\x21-\\x7E]+$', named('must be printable ASCII without spaces')],
  ['^(whsec_[A-Za-z0-9+/]{16,}={0,2}|••••.{0,4})$', named('must be a signing secret: "whsec_" and base64')],
  ['^[0-9]{1,20}$', named('must be an id of up to 20 digits')],
  ['^[1-9][0-9]{1,3}x[1-9][0-9]{1,3}$', named('must be a size such as 1024x1024')],
  ['^[A-Za-z][A-Za-z0-9_]{0,19}$', named('must be up to 20 letters, digits or "_", starting with a letter')],
  ['^[A-Za-z][A-Za-z0-9_-]{0,63}$', named('must be up to 64 letters, digits, "_" or "-", starting with a letter')],
  ['^0x[0-9a-fA-F]{40}$', named('must be an address: "0x" and 40 hexadecimal digits')],
  ['^[0-9]{1,30}(\\.[0-9]{1,36})?$', named('must be a decimal amount such as 12.5')],
  ['^[A-Za-z0-9$._-]{1,20}$', named('must be 1 to 20 letters, digits, "$", ".", "_" or "-"')],
  ['^[a-z0-9][a-z0-9-]{0,31}$', named('must be up to 32 lowercase letters, digits or "-"')],
  ['^[A-Za-z0-9$._-]{1,12}$', named('must be a symbol of 1 to 12 letters, digits, "$", ".", "_" or "-"')],
  ['^[A-Za-z0-9_.:-]+$', named('must be letters, digits, "_", ".", ":" or "-"')],
  ['^[imsu]{0,4}$', named('must be regex flags: any of i, m, s and u')],
]);

/** Whether a pattern has words of its own (the guard test's question). */
export function hasPatternWording(pattern: string): boolean {
  return patternWordings.has(pattern);
}

export function patternWording(pattern: string): Wording {
  return patternWordings.get(pattern) ?? { code: 'pattern', message: 'is not in the accepted form' };
}

const typeNames: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

/** `must be a string or a list`: each JSON type with its article, the last joined with "or". */
export function typeWording(types: string[]): Wording {
  const unique = [...new Set(types.flatMap((type) => type.split(',')).map((type) => typeNames[type] ?? type))];
  const joined = unique.length === 1 ? unique[0] : `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
  return { code: 'type', message: `must be ${joined}` };
}

const formatNames: Record<string, string> = {
  'date-time': 'a date and time such as 2026-01-31T12:00:00Z',
  date: 'a date such as 2026-01-31',
  uri: 'a URL',
  url: 'a URL',
  email: 'an email address',
  uuid: 'a UUID',
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * The words for one JSON Schema keyword that failed, given the keyword's
 * value in the schema (a limit, a pattern, a format, the allowed values).
 */
export function keywordWording(keyword: string, limit: unknown): Wording {
  const count = Number(limit);
  switch (keyword) {
    case 'minLength':
      return count <= 1
        ? { code: 'too_short', message: 'must not be empty' }
        : { code: 'too_short', message: `must be at least ${plural(count, 'character', 'characters')} long` };
    case 'maxLength':
      return { code: 'too_long', message: `must be at most ${plural(count, 'character', 'characters')} long` };
    case 'minItems':
      return count <= 1
        ? { code: 'too_short', message: 'must not be empty' }
        : { code: 'too_short', message: `must have at least ${plural(count, 'item', 'items')}` };
    case 'maxItems':
      return { code: 'too_long', message: `must have at most ${plural(count, 'item', 'items')}` };
    case 'minProperties':
      return { code: 'too_short', message: `must have at least ${plural(count, 'entry', 'entries')}` };
    case 'maxProperties':
      return { code: 'too_long', message: `must have at most ${plural(count, 'entry', 'entries')}` };
    case 'minimum':
      return { code: 'too_small', message: `must be at least ${count}` };
    case 'exclusiveMinimum':
      return { code: 'too_small', message: `must be more than ${count}` };
    case 'maximum':
      return { code: 'too_large', message: `must be at most ${count}` };
    case 'exclusiveMaximum':
      return { code: 'too_large', message: `must be less than ${count}` };
    case 'multipleOf':
      return { code: 'invalid', message: `must be a multiple of ${count}` };
    case 'uniqueItems':
      return { code: 'not_unique', message: 'must not hold the same item twice' };
    case 'pattern':
      return patternWording(String(limit));
    case 'format': {
      const format = String(limit);
      if (format === 'uri' || format === 'url') return notUrl('must be a URL');
      return { code: 'format', message: `must be ${formatNames[format] ?? `a valid ${format}`}` };
    }
    case 'enum':
      return {
        code: 'enum',
        message: `must be one of: ${(limit as unknown[]).map((value) => (value === null ? 'null' : String(value))).join(', ')}`,
      };
    case 'const':
      return { code: 'enum', message: `must be ${JSON.stringify(limit)}` };
    case 'required':
      return { code: 'required', message: 'is required' };
    case 'additionalProperties':
      return { code: 'unknown_property', message: 'is not a known field' };
    default:
      return { code: 'invalid', message: 'is invalid' };
  }
}

/** Each TypeBox check that failed, as the JSON Schema keyword it stands for. */
const valueKeywords: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.ArrayMaxItems]: 'maxItems',
  [ValueErrorType.ArrayMinItems]: 'minItems',
  [ValueErrorType.ArrayUniqueItems]: 'uniqueItems',
  [ValueErrorType.IntegerExclusiveMaximum]: 'exclusiveMaximum',
  [ValueErrorType.IntegerExclusiveMinimum]: 'exclusiveMinimum',
  [ValueErrorType.IntegerMaximum]: 'maximum',
  [ValueErrorType.IntegerMinimum]: 'minimum',
  [ValueErrorType.IntegerMultipleOf]: 'multipleOf',
  [ValueErrorType.NumberExclusiveMaximum]: 'exclusiveMaximum',
  [ValueErrorType.NumberExclusiveMinimum]: 'exclusiveMinimum',
  [ValueErrorType.NumberMaximum]: 'maximum',
  [ValueErrorType.NumberMinimum]: 'minimum',
  [ValueErrorType.NumberMultipleOf]: 'multipleOf',
  [ValueErrorType.ObjectMaxProperties]: 'maxProperties',
  [ValueErrorType.ObjectMinProperties]: 'minProperties',
  [ValueErrorType.StringFormat]: 'format',
  [ValueErrorType.StringMaxLength]: 'maxLength',
  [ValueErrorType.StringMinLength]: 'minLength',
  [ValueErrorType.StringPattern]: 'pattern',
};

const valueTypes: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.Array]: 'array',
  [ValueErrorType.Boolean]: 'boolean',
  [ValueErrorType.Integer]: 'integer',
  [ValueErrorType.Null]: 'null',
  [ValueErrorType.Number]: 'number',
  [ValueErrorType.Object]: 'object',
  [ValueErrorType.String]: 'string',
};

/** The JSON types a schema accepts, for a union's "must be a string or null". */
function typesOf(schema: Record<string, unknown>): string[] {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Record<string, unknown>[]).flatMap(typesOf);
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (schema.const !== undefined) return [typeof schema.const];
  return [];
}

/** The words for a problem TypeBox found (plugin configs, platform settings, tool arguments, inbound bodies). */
export function valueErrorWording(error: ValueError): Wording {
  const schema = error.schema as unknown as Record<string, unknown>;
  const keyword = valueKeywords[error.type];
  if (keyword !== undefined) {
    const limit = keyword === 'format' ? schema.format : keyword === 'uniqueItems' ? true : schema[keyword];
    return keywordWording(keyword, limit);
  }
  const type = valueTypes[error.type];
  if (type !== undefined) return typeWording([type]);
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return keywordWording('required', undefined);
    case ValueErrorType.ObjectAdditionalProperties:
      return keywordWording('additionalProperties', undefined);
    case ValueErrorType.Literal:
      return keywordWording('const', schema.const);
    case ValueErrorType.Union: {
      const enumValues = Array.isArray(schema.anyOf)
        ? (schema.anyOf as Record<string, unknown>[]).map((branch) => branch.const)
        : [];
      if (enumValues.length > 0 && enumValues.every((value) => value !== undefined)) {
        return keywordWording('enum', enumValues);
      }
      const types = typesOf(schema);
      return types.length > 0 ? typeWording(types) : keywordWording('invalid', undefined);
    }
    default:
      return keywordWording('invalid', undefined);
  }
}

/**
 * TypeBox's problems in words, at most `max` of them: a missing property is
 * reported as missing, not also as the wrong type TypeBox finds at its place.
 */
export function valueProblems(errors: Iterable<ValueError>, max: number): Array<{ path: string } & Wording> {
  const problems: Array<{ path: string } & Wording> = [];
  const missing = new Set<string>();
  for (const error of errors) {
    if (problems.length >= max) break;
    if (error.type === ValueErrorType.ObjectRequiredProperty) missing.add(error.path);
    else if (error.value === undefined && missing.has(error.path)) continue;
    problems.push({ path: error.path, ...valueErrorWording(error) });
  }
  return problems;
}

import fc from 'fast-check';

/**
 * Values chosen to break parsers, validators, storage and serializers rather
 * than to look like real input: unicode edge cases, lone surrogates, control
 * characters, prototype-polluting keys, boundary numbers and deep nesting.
 */

/** JSON text that is written into a body as is (see `serializeJson`), for shapes JSON.stringify cannot build. */
export class RawJson {
  constructor(readonly text: string) {}
}

export function serializeJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(serializeJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${serializeJson(item)}`);
    return `{${entries.join(',')}}`;
  }
  // undefined has no JSON form; a field holding it is sent as null rather than dropped silently.
  return value === undefined ? 'null' : JSON.stringify(value);
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

export const oddCharacters = fc.constantFrom(
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\r\n',
  '\u2028',
  '\u2029',
  '\u200b',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\u{10ffff}',
  '\u{1f600}',
  '\u202e',
  'e\u0301',
  '𝕬',
  '漢字',
  'ﷺ',
  "'; drop table agents; --",
  '%00',
  '../',
  '${7*7}',
  '{{7*7}}',
  '<script>',
  '\\',
  '"',
);

/** Short strings from every corner of unicode, lone surrogates included. */
export const hostileShortString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: fc.oneof(loneSurrogate, oddCharacters), maxLength: 8 }),
  oddCharacters,
  fc.constantFrom('', ' ', '\t', '   \n  '),
);

const hugeLengths = [10_001, 32_001, 100_000, 1_100_000];

/** A string past every documented bound; the 1.1 MB one is also past the body limit. */
export const hugeString = fc
  .tuple(fc.constantFrom(...hugeLengths), fc.constantFrom('a', 'é', '\u{1f600}', ' ', '\\n'))
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

export const prototypeKeys = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty');

export const extraKey = fc.oneof(
  prototypeKeys,
  fc.constantFrom('id', 'createdAt', 'updatedAt', 'statusReason', 'accountId', 'key', ''),
  hostileShortString,
  fc.constant('k'.repeat(5_000)),
);

export const boundaryNumber = fc.constantFrom(
  0,
  -0,
  -1,
  0.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 64,
  Number.MIN_VALUE,
);

/** JSON literals JSON.stringify cannot produce: numbers past a double, exponents, leading zeros. */
export const oddNumberText = fc
  .constantFrom('1e400', '-1e400', '1E+2', '0.0000000000000000000001', '100000000000000000000000000000', '-0.0', '1.0')
  .map((text) => new RawJson(text));

const nestingDepths = [10, 100, 1_000, 5_000, 20_000, 100_000];

/** Arrays or objects nested thousands deep: a recursive parser, validator or serializer overflows its stack. */
export const deeplyNested = fc
  .tuple(fc.constantFrom(...nestingDepths), fc.constantFrom('array', 'object', 'mixed'))
  .map(([depth, shape]) => {
    if (shape === 'array') return new RawJson('['.repeat(depth) + ']'.repeat(depth));
    if (shape === 'object') return new RawJson('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
    return new RawJson('{"a":['.repeat(depth) + '1' + ']}'.repeat(depth));
  });

/** Any JSON value of a type a schema is unlikely to want. */
export const wrongTypeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, '', 'text', [], {}, [null], { a: 1 }, '1', 'true', 'null'),
  boundaryNumber,
  oddNumberText,
  hostileShortString,
  fc.jsonValue({ maxDepth: 2 }),
);

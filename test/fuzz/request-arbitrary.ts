import fc from 'fast-check';
import { hostileShortString, hugeString, serializeJson } from './hostile-values.js';
import type { Operation, Parameter } from './openapi-operations.js';
import { mutatedValue, validValue } from './schema-values.js';

/**
 * One generated request, before the ids and keys of a running server are
 * filled in (see `renderRequest`), so the same seed describes the same
 * request on every run.
 */

/** An id the server knows (`pool` names which list of the target's) or text sent as it is. */
export type IdChoice = { pool: IdPool; index: number } | { literal: string };
export type IdPool =
  | 'ownAgent'
  | 'otherAccountAgent'
  | 'deletedAgent'
  | 'spareKey'
  | 'otherAccountKey'
  | 'ownWebhook'
  | 'otherAccountWebhook'
  | 'ownDelivery'
  | 'ownKnowledgeBase'
  | 'otherAccountKnowledgeBase'
  | 'ownDocument'
  | 'otherAccountDocument'
  | 'ownRun'
  | 'ownTask'
  | 'ownApproval'
  | 'ownFile'
  | 'ownEvalDataset'
  | 'otherAccountEvalDataset'
  /** Outside the path pools, so never changed or deleted: the dataset an eval's body names (render-request.ts). */
  | 'knownEvalDataset'
  | 'ownEval';

export type AuthChoice =
  { key: 'owner' | 'otherAccount' | 'readOnly' | 'revoked' } | { header: string | null } | { duplicated: true };

export type Framing = 'content-length' | 'chunked' | 'short-length' | 'both';

export interface FuzzRequest {
  operation: string;
  method: string;
  /** Literal path text and path parameters, in order. */
  path: Array<string | IdChoice>;
  query: string;
  authorization: AuthChoice;
  /** Zero, one or several Content-Type headers. */
  contentTypes: string[];
  headers: Array<[string, string | Buffer]>;
  body: Buffer | null;
  framing: Framing;
}

/** Percent-encodes every byte outside the unreserved set, as a client that encodes properly would. */
export function encodePathText(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16)}`,
    )
    .join('');
}

const idPools: Record<string, IdPool[]> = {
  agentId: ['ownAgent', 'ownAgent', 'ownAgent', 'otherAccountAgent', 'deletedAgent'],
  keyId: ['spareKey', 'otherAccountKey'],
  webhookId: ['ownWebhook', 'ownWebhook', 'ownWebhook', 'otherAccountWebhook'],
  // Deliveries of the own webhooks, one each in the same order: equal indexes name a matching pair.
  deliveryId: ['ownDelivery'],
  // The OpenAI-compatible door names agents as models.
  model: ['ownAgent', 'ownAgent', 'otherAccountAgent', 'deletedAgent'],
  // The own documents all belong to the one own knowledge base (fuzz-target.ts), so own pairs reach both.
  knowledgeBaseId: ['ownKnowledgeBase', 'ownKnowledgeBase', 'ownKnowledgeBase', 'otherAccountKnowledgeBase'],
  documentId: ['ownDocument', 'ownDocument', 'ownDocument', 'otherAccountDocument'],
  // A run and a task of each own agent, in the agents' order: under an own agent, the one of the same position.
  runId: ['ownRun'],
  taskId: ['ownTask'],
  approvalId: ['ownApproval'],
  // Images sent with a message of an own agent, stored with its turn.
  fileId: ['ownFile'],
  datasetId: ['ownEvalDataset', 'ownEvalDataset', 'ownEvalDataset', 'otherAccountEvalDataset'],
  // An eval of each own agent, in the agents' order, like runs.
  evalId: ['ownEval'],
};

const literalIds = fc.oneof(
  fc.constantFrom(
    'agt_01JD0000000000000000000000',
    'key_01JD0000000000000000000000',
    '..%2f..%2fapi-keys',
    '..%2F..%2F..%2Fetc%2Fpasswd',
    '%2e%2e',
    '..',
    '.',
    '%00',
    '%ff%fe',
    '%c0%af',
    '%ed%a0%80',
    '%',
    '%zz',
    '%25',
    'a%2fb',
    '*',
    "'%20or%201=1--",
    'agt_%F0%9F%98%80',
    'null',
    'undefined',
    '__proto__',
    'constructor',
  ),
  fc.constantFrom(199, 200, 201, 1_000, 8_000).map((length) => `agt_${'A'.repeat(length - 4)}`),
  hostileShortString.map(encodePathText),
);

function idChoice(parameter: Parameter): fc.Arbitrary<IdChoice> {
  const pools = idPools[parameter.name] ?? [];
  const known = pools.length
    ? fc.tuple(fc.constantFrom(...pools), fc.nat(7)).map(([pool, index]): IdChoice => ({ pool, index }))
    : parameter.name === 'version'
      ? // An agent's versions are numbered from 1: the first ones exist on every own agent.
        fc.integer({ min: 1, max: 3 }).map((value): IdChoice => ({ literal: String(value) }))
      : validValue(parameter.schema).map((value): IdChoice => ({ literal: encodePathText(String(value)) }));
  return fc.oneof(
    { weight: 6, arbitrary: known },
    { weight: 2, arbitrary: literalIds.map((literal): IdChoice => ({ literal })) },
  );
}

const pathSuffix = fc.oneof(
  { weight: 12, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('/', '//', '/..', '/%2e%2e/', '/.', '/x', '/%00', ';jsessionid=1', '#x') },
);

function queryPair(parameter: Parameter): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 3, arbitrary: validValue(parameter.schema) },
    { weight: 3, arbitrary: mutatedValue(parameter.schema) },
  );
  return value.map((item) => {
    const text = typeof item === 'string' ? item : serializeJson(item);
    return `${parameter.name}=${encodePathText(text.length > 20_000 ? text.slice(0, 20_000) : text)}`;
  });
}

const malformedQueryPart = fc.constantFrom(
  '%',
  '%zz',
  '%ff',
  '%c0%80',
  '=',
  '&&&',
  'a',
  '__proto__=x',
  '__proto__[admin]=1',
  'constructor=x',
  'limit[]=1',
  'limit[a]=1',
  'a[b][c]=d',
  'x=' + 'y'.repeat(9_000),
  'limit=1e3',
  'limit=0x10',
  'limit=%20',
  'limit=',
  'page=-1',
  'page=99999999999999999999',
  'cursor=' + 'A'.repeat(2_000),
  'cursor=eyJhIjoxfQ',
  'status=active&status=error',
  'limit=1&limit=2',
  'userId=a&userId=b',
);

function queryOf(operation: Operation): fc.Arbitrary<string> {
  const pairs = operation.queryParameters.map((parameter) => fc.option(queryPair(parameter), { freq: 2 }));
  const valid = fc.tuple(...pairs).map((items) => items.filter((item): item is string => item !== null));
  const repeated = operation.queryParameters.length
    ? fc
        .constantFrom(...operation.queryParameters)
        .chain((parameter) => fc.array(queryPair(parameter), { minLength: 2, maxLength: 4 }))
    : fc.constant([] as string[]);
  return fc
    .tuple(
      valid,
      fc.oneof({ weight: 4, arbitrary: fc.constant([] as string[]) }, { weight: 1, arbitrary: repeated }),
      fc.array(malformedQueryPart, { maxLength: 2 }),
    )
    .map(([validPairs, repeatedPairs, malformed]) => [...validPairs, ...repeatedPairs, ...malformed].join('&'));
}

const authorization: fc.Arbitrary<AuthChoice> = fc.oneof(
  { weight: 40, arbitrary: fc.constant({ key: 'owner' as const }) },
  {
    weight: 6,
    arbitrary: fc.constantFrom(...(['otherAccount', 'readOnly', 'revoked'] as const)).map((key) => ({ key })),
  },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        null,
        '',
        'Bearer',
        'Bearer ',
        'Bearer  ',
        'bearer agd_00000000000000000000000000000000',
        'Bearer agd_00000000000000000000000000000000',
        'Bearer agd_' + '0'.repeat(200),
        'Bearer ' + 'x'.repeat(10_000),
        'Basic YWRtaW46YWRtaW4=',
        'Bearer agd_\u00ff\u00fe' + '0'.repeat(32),
        'Bearer agd_0000000000000000000000000000000 0',
        'Token abc',
      )
      .map((header) => ({ header })),
  },
  { weight: 1, arbitrary: fc.constant({ duplicated: true as const }) },
);

const contentTypeValue = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/merge-patch+json',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json;;',
  'application/json; charset',
  'application/jsonx',
  'application/problem+json',
  'application/vnd.api+json',
  '*/*',
  '',
  'application/json, text/plain',
  'application/' + 'x'.repeat(5_000),
);

function contentTypes(hasBody: boolean, operation: Operation): fc.Arbitrary<string[]> {
  const declared = operation.body?.contentTypes ?? ['application/json'];
  return fc.oneof(
    { weight: hasBody ? 14 : 2, arbitrary: fc.constantFrom(...declared).map((type) => [type]) },
    { weight: 3, arbitrary: contentTypeValue.map((type) => [type]) },
    { weight: hasBody ? 1 : 8, arbitrary: fc.constant([] as string[]) },
    { weight: 1, arbitrary: fc.tuple(contentTypeValue, contentTypeValue) },
  );
}

const oddHeader: fc.Arbitrary<[string, string | Buffer]> = fc.oneof(
  fc
    .constantFrom(...(['1-valid.request:id', '', 'x'.repeat(129), 'a b', '../../etc'] as const))
    .map((value): [string, string] => ['x-request-id', value]),
  fc
    .oneof(
      hostileShortString,
      hugeString.map((text) => text.slice(0, 5_000)),
      fc.constantFrom('', 'same-key'),
    )
    .map((value): [string, Buffer] => ['idempotency-key', Buffer.from(value, 'utf8')]),
  fc.constantFrom(
    ['accept', 'text/event-stream'],
    ['accept', 'application/xml'],
    ['accept', '*/*;q=0'],
    ['accept-encoding', 'gzip, br, zstd'],
    ['content-encoding', 'gzip'],
    ['content-encoding', 'identity, br'],
    ['expect', '100-continue'],
    ['expect', 'something-else'],
    ['host', ''],
    ['host', 'evil.example:99999'],
    ['x-forwarded-for', '1.2.3.4, ::1, not-an-address'],
    ['origin', 'null'],
    ['range', 'bytes=0-1'],
    ['if-none-match', '*'],
    ['x-http-method-override', 'DELETE'],
  ) as fc.Arbitrary<[string, string]>,
  // Over the 16 KiB the HTTP parser accepts in headers: answered before any route runs.
  fc.constantFrom(8_000, 17_000, 70_000).map((size): [string, string] => ['x-padding', 'p'.repeat(size)]),
  fc
    .constantFrom(
      Buffer.from([0xff, 0xfe, 0x41]),
      Buffer.from('caf\u00e9', 'latin1'),
      Buffer.from('\u{1f600}', 'utf8'),
      Buffer.from('a\u0000b', 'latin1'),
      Buffer.from('a\u0007b', 'latin1'),
    )
    .map((value): [string, Buffer] => ['x-odd-bytes', value]),
  fc.constantFrom('bad header', 'bad:header', 'ünïcode', '', '(x)').map((name): [string, string] => [name, 'v']),
);

const rawBody = fc.oneof(
  fc
    .constantFrom(
      '',
      ' ',
      'null',
      'true',
      '0',
      '"text"',
      '[]',
      '{',
      '}',
      '{"name":',
      '{"name":"a"}garbage',
      '{"name":"a",}',
      "{'name':'a'}",
      '{"name":"a","name":1}',
      '{"name":"\\ud800"}',
      '{"name":"\\u0000"}',
      '{"name":"a\\x41"}',
      '{"__proto__":{"admin":true},"name":"a"}',
      '{"constructor":{"prototype":{"admin":true}},"name":"a"}',
      'name=a&text=b',
      '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\na\r\n--x--',
      '\ufeff{"name":"a","text":"b"}',
      'NaN',
      '{"name":NaN}',
      '{"text":Infinity}',
    )
    .map((text) => Buffer.from(text, 'utf8')),
  // Invalid UTF-8: a lone continuation byte, an overlong slash, an encoded surrogate, a truncated sequence.
  fc
    .constantFrom([0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0xff, 0xfe, 0xfd])
    .chain((bytes) =>
      fc.constantFrom(
        Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('","text":"x"}')]),
        Buffer.concat([Buffer.from('{"text":"x","'), Buffer.from(bytes), Buffer.from('":1}')]),
        Buffer.from(bytes),
      ),
    ),
  fc.constantFrom('{"name":"a","text":"b"}').map((text) => Buffer.from(text, 'utf16le')),
  fc.constantFrom(1_048_577, 3_000_000).map((size) => Buffer.alloc(size, 0x20)),
);

/**
 * A body's `datasetId` that reaches a live dataset: rendered as the target's known eval dataset
 * (render-request.ts), an id of the same length, so the body's length holds.
 */
export const knownDatasetPlaceholder = 'eds_00000000000000000000000000';

/** The agent the fuzz target names so (see fuzz-target.ts): a body's `model` that reaches a live agent. */
export const knownModel = 'agent:Fuzz model';
const smallestChatRequest = { model: knownModel, messages: [{ role: 'user', content: 'hello' }] };

function bodyOf(operation: Operation): fc.Arbitrary<Buffer | null> {
  const schema = operation.body?.schema;
  const noBody = fc.constant(null);
  if (!schema) return fc.oneof({ weight: 8, arbitrary: noBody }, { weight: 1, arbitrary: rawBody });
  const json = (value: unknown) => {
    try {
      return Buffer.from(serializeJson(value), 'utf8');
    } catch (error) {
      // A mutation that nests huge values can outgrow the longest string V8 makes: send an oversized body instead.
      if (error instanceof RangeError) return Buffer.alloc(3_000_000, 0x20);
      throw error;
    }
  };
  // Some valid shapes also need the server's state: the OpenAI-compatible door names its agent in the body
  // (half the valid bodies name one that exists, some are the smallest complete request), and an agent's
  // plugins and model are checked against the plugins and providers the server offers (half the valid
  // agent bodies leave them out).
  const withState = (value: unknown): fc.Arbitrary<unknown> => {
    const fields = value as Record<string, unknown>;
    if (schema.properties?.messages && schema.properties?.model) {
      return fc.constantFrom(value, { ...fields, model: knownModel }, smallestChatRequest);
    }
    if (schema.properties?.plugins) {
      // Knowledge bases must be the account's own: a generated id never is.
      const { plugins: _plugins, model: _model, knowledgeBases: _knowledgeBases, ...rest } = fields;
      const { knowledgeBases: _bases, ...withoutBases } = fields;
      return fc.constantFrom(value, rest, withoutBases);
    }
    if (schema.properties?.datasetId && schema.properties?.versions) {
      // An eval names a dataset of the account and versions of the agent: a generated id or number rarely is one.
      const { versions: _versions, judge: _judge, ...rest } = fields;
      return fc.constantFrom(
        value,
        { ...rest, datasetId: knownDatasetPlaceholder },
        { datasetId: knownDatasetPlaceholder, concurrency: 1 },
      );
    }
    if (schema.properties?.facts && schema.properties?.summary) {
      // Edits name the user's facts by id, which a generated id never is; a new summary alone always fits.
      const { facts: _facts, ...rest } = fields;
      return fc.constantFrom(value, rest);
    }
    return fc.constant(value);
  };
  const valid = validValue(schema).chain(withState);
  return fc.oneof(
    { weight: 4, arbitrary: valid.map(json) },
    { weight: 8, arbitrary: mutatedValue(schema).map(json) },
    { weight: 3, arbitrary: rawBody },
    { weight: 1, arbitrary: noBody },
  );
}

const oddMethod = fc.constantFrom(
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'get',
  'M'.repeat(200),
);

/** Every request the fuzzer may send for one operation. */
export function requestArbitrary(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const segments = operation.path.split(/(\{[^}]+\})/).filter((segment) => segment !== '');
  const path = fc.tuple(
    ...segments.map((segment): fc.Arbitrary<string | IdChoice> => {
      const parameter = operation.pathParameters.find((candidate) => `{${candidate.name}}` === segment);
      return parameter ? idChoice(parameter) : fc.constant(segment);
    }),
  );
  return fc
    .record({
      method: fc.oneof({ weight: 15, arbitrary: fc.constant(operation.method) }, { weight: 1, arbitrary: oddMethod }),
      path,
      suffix: pathSuffix,
      query: queryOf(operation),
      authorization: operation.authenticated
        ? authorization
        : fc.oneof({ weight: 4, arbitrary: fc.constant({ header: null }) }, { weight: 1, arbitrary: authorization }),
      body: bodyOf(operation),
      headers: fc.oneof(
        { weight: 4, arbitrary: fc.constant([] as Array<[string, string | Buffer]>) },
        { weight: 1, arbitrary: fc.array(oddHeader, { minLength: 1, maxLength: 3 }) },
      ),
      framing: fc.oneof(
        { weight: 20, arbitrary: fc.constant<Framing>('content-length') },
        { weight: 1, arbitrary: fc.constantFrom<Framing>('chunked', 'short-length', 'both') },
      ),
    })
    .chain((parts) =>
      contentTypes(parts.body !== null, operation).map((types): FuzzRequest => ({
        operation: operation.label,
        method: parts.method,
        path: parts.suffix ? [...parts.path, parts.suffix] : parts.path,
        query: parts.query,
        authorization: parts.authorization,
        contentTypes: types,
        headers: parts.headers,
        body: parts.body,
        framing: parts.framing,
      })),
    );
}

/** A request for any of `operations`, each as likely as another. */
export function anyRequest(operations: Operation[]): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...operations.map(requestArbitrary));
}

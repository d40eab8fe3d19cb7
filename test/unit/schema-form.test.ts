import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  draftOf,
  kindOf,
  labelOf,
  pointersOf,
  valueOf,
  type Draft,
  type DraftProblem,
  type JsonSchema,
} from '../../web/src/ui/schema-form/json-schema.js';

/** Shaped like the http plugin's published config schema (GET /v1/plugins). */
const httpConfig: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    secretHeaders: {
      type: 'object',
      patternProperties: { '^host$': { type: 'object', patternProperties: { '^h$': { type: 'string' } } } },
    },
    allowedHosts: { type: 'array', items: { type: 'string' } },
    timeoutMs: { type: 'integer', default: 10_000, minimum: 1000, maximum: 30_000 },
    mode: {
      anyOf: [
        { const: 'a', type: 'string' },
        { const: 'b', type: 'string' },
      ],
      default: 'a',
    },
    document: { anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }] },
    strict: { type: 'boolean' },
  },
};

describe('forms from JSON Schemas', () => {
  it('gives each node the control its schema describes', () => {
    const properties = httpConfig.properties!;
    assert.equal(kindOf(httpConfig), 'object');
    assert.equal(kindOf(properties.secretHeaders!), 'map');
    assert.equal(kindOf(properties.allowedHosts!), 'array');
    assert.equal(kindOf(properties.timeoutMs!), 'number');
    assert.equal(kindOf(properties.mode!), 'enum');
    assert.equal(kindOf(properties.document!), 'text');
    assert.equal(kindOf({}), 'json');
    assert.equal(labelOf('rpcUrl'), 'RPC URL');
    assert.equal(labelOf('timeoutMs'), 'Timeout (ms)');
  });

  it('fills in defaults, and sends back what was entered with blanks left out', () => {
    const draft = draftOf(httpConfig, undefined);
    assert.deepEqual(draft, {
      secretHeaders: [],
      allowedHosts: [],
      timeoutMs: '10000',
      mode: 'a',
      document: '',
      strict: false,
    });
    const problems: DraftProblem[] = [];
    const edited = {
      ...(draft as Record<string, Draft>),
      allowedHosts: ['api.example.com', ''],
      secretHeaders: [
        { key: 'host', value: [{ key: 'h', value: 'token' }] },
        { key: ' ', value: [] },
      ],
      timeoutMs: 'soon',
    };
    assert.deepEqual(valueOf(httpConfig, edited, '/plugins/0/config', problems), {
      secretHeaders: { host: { h: 'token' } },
      allowedHosts: ['api.example.com'],
      // Not a number: sent as typed, so the server's error names this field.
      timeoutMs: 'soon',
      mode: 'a',
      strict: false,
    });
    assert.deepEqual(problems, []);
  });

  it('reads a stored value back into the same draft, and reports JSON it cannot read', () => {
    const stored = { allowedHosts: ['a.example'], secretHeaders: { 'x/y': { h: 't' } }, timeoutMs: 2000 };
    const draft = draftOf(httpConfig, stored);
    const problems: DraftProblem[] = [];
    assert.deepEqual(valueOf(httpConfig, draft, '', problems), { ...stored, mode: 'a', strict: false });
    // Keys are escaped in pointers (RFC 6901), so the server's error for an entry finds it.
    assert.ok(pointersOf(httpConfig, draft, '/c').includes('/c/secretHeaders/x~1y/h'));
    assert.ok(pointersOf(httpConfig, draft, '/c').includes('/c/allowedHosts/0'));
    assert.equal(valueOf({}, '{ nope', '/p', problems), undefined);
    assert.deepEqual(problems, [{ path: '/p', message: 'is not valid JSON' }]);
  });
});

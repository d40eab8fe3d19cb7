import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hasPatternWording } from '../../src/validation-wording.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Every `pattern` in a JSON Schema document, with where it was found. */
function patternsIn(node: unknown, where: string, found: Map<string, string>): Map<string, string> {
  if (Array.isArray(node)) node.forEach((item, index) => patternsIn(item, `${where}/${index}`, found));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.set(value, where);
      else patternsIn(value, `${where}/${key}`, found);
    }
  }
  return found;
}

describe('validation problems in words, with a code', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t?.close());

  const post = (url: string, payload: Record<string, unknown>) => t.inject({ method: 'POST', url, payload });

  it('an agent with an empty name, a bad knowledge base id and a temperature out of range', async () => {
    const response = await post('/v1/agents', {
      name: '',
      knowledgeBases: ['kb_not-an-id'],
      model: { provider: 'builtin', name: 'echo', temperature: 5 },
      colour: 'blue',
    });
    assert.equal(response.statusCode, 400);
    const problem = response.json();
    assert.equal(problem.code, 'validation_failed');
    assert.deepEqual(
      problem.errors.sort((a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path)),
      [
        { path: '/body/colour', code: 'unknown_property', message: 'is not a known field' },
        { path: '/body/knowledgeBases/0', code: 'invalid_id', message: 'is not a knowledge base id' },
        { path: '/body/model/temperature', code: 'too_large', message: 'must be at most 2' },
        { path: '/body/name', code: 'too_short', message: 'must not be empty' },
      ],
    );
    assert.match(problem.detail, /name must not be empty/);
  });

  it('a webhook whose URL is not http(s)', async () => {
    const response = await post('/v1/webhooks', { url: 'ftp://example.com/hook', events: ['agent.created'] });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(
      response.json().errors.find((error: { path: string }) => error.path === '/body/url'),
      { path: '/body/url', code: 'not_url', message: 'must be an http(s) URL' },
    );
  });

  it('a number and an enum in the query, and a plugin setting', async () => {
    const messages = await t.inject({ method: 'GET', url: '/v1/agents?limit=0&status=gone' });
    assert.deepEqual(messages.json().errors, [
      { path: '/query/limit', code: 'too_small', message: 'must be at least 1' },
      { path: '/query/status', code: 'enum', message: 'must be one of: active, inactive, error' },
    ]);
    const plugin = await post('/v1/agents', {
      name: 'Fetcher',
      plugins: [{ name: 'http', config: { allowedHosts: ['not a host!'], timeoutMs: 'soon' } }],
    });
    assert.equal(plugin.statusCode, 400);
    assert.deepEqual(plugin.json().errors, [
      {
        path: '/body/plugins/0/config/allowedHosts/0',
        code: 'pattern',
        message: 'must be a host name, or *. and a domain',
      },
      { path: '/body/plugins/0/config/timeoutMs', code: 'type', message: 'must be a whole number' },
    ]);
    const secret = await post('/v1/agents', {
      name: 'Keeper',
      plugins: [{ name: 'http', secrets: { 'my token': 'x' } }],
    });
    assert.deepEqual(
      secret.json().errors.map((error: { path: string; code: string }) => [error.path, error.code]),
      [['/body/plugins/0/secrets/my token', 'invalid_key']],
    );
  });

  it('no message of any published schema would show a raw pattern', async () => {
    const document = (await t.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const plugins = (await t.inject({ method: 'GET', url: '/v1/plugins' })).json();
    const platforms = (await t.inject({ method: 'GET', url: '/v1/platforms' })).json();
    const found = new Map<string, string>();
    patternsIn(document, 'openapi', found);
    patternsIn(plugins, 'plugins', found);
    patternsIn(platforms, 'platforms', found);
    assert.ok(found.size > 10, `only ${found.size} patterns found: the walk missed the schemas`);
    const unnamed = [...found].filter(([pattern]) => !hasPatternWording(pattern));
    assert.deepEqual(unnamed, [], 'patterns without words in src/validation-wording.ts');
  });

  it('the API description documents the code of each error', async () => {
    const document = (await t.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const item = document.components.schemas.Problem.properties.errors.items;
    assert.ok(item.properties.code.enum.includes('invalid_id'));
    assert.match(item.properties.code.description, /too_short/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadDocument } from '../../src/plugins/openapi/document.js';
import { toolSchema } from '../../src/plugins/openapi/input-schema.js';
import { isCallable, operationsOf, toolNames, type Operation } from '../../src/plugins/openapi/operations.js';
import { requestFor } from '../../src/plugins/openapi/request.js';
import { credentialsFor, derivedSecretForms } from '../../src/plugins/openapi/security.js';
import { startLoopbackHttpServer } from '../helpers/loopback-http-server.js';

/** The pure parts of the openapi plugin: tool names, input schemas, requests and credentials. */

const config = { timeoutMs: 10_000, maxResponseBytes: 1_048_576 };

describe('openapi operations as tools', () => {
  it('names tools after operationIds, sanitised, cut to 64 characters and numbered when they collide', () => {
    assert.deepEqual(toolNames(['get pet', 'get.pet', 'x'.repeat(80), 'x'.repeat(80), 'GET /a/{b}'], undefined), [
      'get_pet',
      'get_pet_2',
      'x'.repeat(64),
      `${'x'.repeat(62)}_2`,
      'GET__a__b_',
    ]);
    assert.deepEqual(toolNames(['listPets'], 'shop'), ['shop_listPets']);
  });

  it('cuts a cycle where it comes back, says nullable the JSON Schema way and drops read-only properties', () => {
    const node: Record<string, any> = { type: 'object', properties: { name: { type: 'string', nullable: true } } };
    node.properties.next = node;
    node.properties.id = { type: 'integer', readOnly: true };
    node.required = ['id', 'name'];
    node.example = { name: 'x' };
    assert.deepEqual(toolSchema(node), {
      type: 'object',
      properties: {
        name: { type: ['string', 'null'] },
        next: {},
      },
      required: ['name'],
    });
    assert.deepEqual(toolSchema({ $ref: 'https://elsewhere.example/schema.json' }), {});
  });

  it('fills the path, the query in its style, the headers and the JSON body', () => {
    const [operation] = operationsOf({
      openapi: '3.1.0',
      paths: {
        '/items/{id}/tags/{tag}': {
          post: {
            operationId: 'tagItem',
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'tag', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'ids', in: 'query', schema: { type: 'array' } },
              { name: 'filter', in: 'query', style: 'deepObject', schema: { type: 'object' } },
              { name: 'id', in: 'header', schema: { type: 'string' } },
              { name: 'Accept', in: 'header', schema: { type: 'string' } },
            ],
            requestBody: { content: { 'application/merge-patch+json': { schema: { type: 'object' } } } },
          },
        },
      },
    }) as Operation[];
    assert.ok(operation && isCallable(operation));
    assert.deepEqual(Object.keys(operation.inputSchema.properties as object), [
      'id',
      'tag',
      'ids',
      'filter',
      'header_id',
      'body',
    ]);
    const request = requestFor(operation, new URL('https://api.example/v2/'), {
      id: 'a b',
      tag: 'x/y',
      ids: [1, 2],
      filter: { color: 'red' },
      header_id: 'h1',
      body: { done: true },
    });
    assert.equal(request.url.href, 'https://api.example/v2/items/a%20b/tags/x%2Fy?ids=1&ids=2&filter%5Bcolor%5D=red');
    assert.equal(request.method, 'POST');
    assert.equal(request.headers.get('id'), 'h1');
    assert.equal(request.headers.get('content-type'), 'application/merge-patch+json');
    assert.equal(Buffer.from(request.body!).toString(), '{"done":true}');
  });

  it('fills the first security requirement it has every secret for', () => {
    const document = {
      components: {
        securitySchemes: {
          key: { type: 'apiKey', in: 'query', name: 'api_key' },
          basic: { type: 'http', scheme: 'basic' },
          session: { type: 'apiKey', in: 'cookie', name: 'sid' },
        },
      },
    };
    const requirements = [{ key: [], session: [] }, { basic: [] }, {}];
    assert.deepEqual(credentialsFor(document, requirements, { basic: 'ann:pw' }), {
      headers: { authorization: `Basic ${Buffer.from('ann:pw').toString('base64')}` },
      query: [],
    });
    assert.deepEqual(credentialsFor(document, requirements, { key: 'k1', session: 's1', basic: 'ann:pw' }), {
      headers: { cookie: 'sid=s1' },
      query: [['api_key', 'k1']],
    });
    assert.equal(credentialsFor(document, requirements, {}), null);
    assert.deepEqual(derivedSecretForms(document, { key: 'k 1+2/3', basic: 'ann:pw', session: 'plain' }).sort(), [
      Buffer.from('ann:pw').toString('base64'),
      'k%201%2B2%2F3',
      'k+1%2B2%2F3',
    ]);
  });

  it('never follows a $ref out of the document', async () => {
    const server = await startLoopbackHttpServer((_request, response) => response.end('{"type":"string"}'));
    try {
      const { document } = await loadDocument(
        {
          ...config,
          document: {
            openapi: '3.1.0',
            info: { title: 'x', version: '1' },
            paths: {
              '/a': {
                get: {
                  parameters: [{ name: 'q', in: 'query', schema: { $ref: `${server.origin}/schema.json` } }],
                  responses: { '200': { description: 'ok' } },
                },
              },
            },
          },
        },
        globalThis.fetch,
        { validate: true },
      );
      const [operation] = operationsOf(document) as Operation[];
      assert.deepEqual((operation!.inputSchema.properties as Record<string, unknown>).q, {});
      assert.equal(server.received.length, 0, 'nothing was fetched');
    } finally {
      await server.close();
    }
  });
});

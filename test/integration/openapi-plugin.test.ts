import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The openapi plugin through an agent: a loopback API described by an
 * OpenAPI document, a model (the fake OpenAI-compatible server) calling its
 * operations as tools, and agentd filling in the parameters, the body and the
 * API key, which neither the model nor the log ever sees.
 */

const petKey = 'pet-key-7d41c09e88aa';
const bearer = 'store-token-2f6b0d93c1';

/** An OpenAPI 3.1 document with path, query and header parameters, a JSON body, $refs (one cyclic) and an API key. */
const petsDocument = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1.0.0' },
  security: [{ petKey: [] }],
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        summary: 'Lists the pets.',
        parameters: [{ $ref: '#/components/parameters/Limit' }],
        responses: { '200': { description: 'The pets.' } },
      },
      post: {
        operationId: 'createPet',
        summary: 'Adds a pet.',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
        },
        responses: { '201': { description: 'Added.' } },
      },
    },
    '/pets/{petId}': {
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        operationId: 'getPet',
        summary: 'Finds a pet.',
        description: 'Finds a pet by its number.',
        parameters: [
          { name: 'fields', in: 'query', schema: { type: 'array', items: { type: 'string' } }, explode: false },
          { name: 'X-Request-Tag', in: 'header', schema: { type: 'string' }, description: 'A tag for the log.' },
        ],
        responses: {
          '200': {
            description: 'The pet.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
      delete: { operationId: 'deletePet', responses: { '204': { description: 'Gone.' } } },
    },
  },
  components: {
    parameters: { Limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } } },
    securitySchemes: { petKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    schemas: {
      NewPet: {
        type: 'object',
        required: ['name'],
        properties: {
          id: { type: 'integer', readOnly: true },
          name: { type: 'string' },
          tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
        },
      },
      Pet: { allOf: [{ $ref: '#/components/schemas/NewPet' }, { required: ['id'] }] },
      Tag: {
        type: 'object',
        properties: {
          label: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
        },
      },
    },
  },
};

/** The same kind of API as OpenAPI 3.0 in YAML, with a bearer scheme and a `nullable` field. */
const storeYaml = (origin: string) => `
openapi: 3.0.3
info:
  title: Store
  version: '2'
servers:
  - url: ${origin}/store
security:
  - token: []
paths:
  /orders/{orderId}:
    put:
      operationId: updateOrder
      summary: Changes an order.
      parameters:
        - name: orderId
          in: path
          required: true
          schema:
            type: string
      requestBody:
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Order'
      responses:
        '200':
          description: Changed.
components:
  securitySchemes:
    token:
      type: http
      scheme: bearer
  schemas:
    Order:
      type: object
      properties:
        note:
          type: string
          nullable: true
`;

describe('the openapi plugin', () => {
  let fake: FakeProviderServer;
  let api: LoopbackHttpServer;
  let t: TestApp;

  before(async () => {
    fake = await startFakeOpenAiServer();
    api = await startLoopbackHttpServer((request, response) => {
      const url = new URL(request.path, 'http://x');
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (url.pathname === '/docs/store.yaml') {
        response.writeHead(200, { 'content-type': 'application/yaml' });
        response.end(storeYaml(api.origin));
        return;
      }
      if (url.pathname === '/docs/missing.yaml') return json(404, { error: 'no such document' });
      if (url.pathname.startsWith('/store/')) {
        if (request.headers.authorization !== `Bearer ${bearer}`) return json(401, { error: 'who are you?' });
        return json(200, { changed: url.pathname.split('/').at(-1), with: JSON.parse(request.body || 'null') });
      }
      if (request.headers['x-api-key'] !== petKey) return json(401, { error: 'missing or wrong API key' });
      if (url.pathname === '/pets' && request.method === 'GET') {
        return json(200, [{ id: 1, name: 'Rex' }].slice(0, Number(url.searchParams.get('limit') ?? 10)));
      }
      if (url.pathname === '/pets' && request.method === 'POST')
        return json(201, { id: 3, ...JSON.parse(request.body) });
      if (url.pathname === '/pets/404') return json(404, { error: 'no pet 404' });
      if (url.pathname === '/pets/7' && request.method === 'GET') {
        return json(200, {
          id: 7,
          name: 'Tom',
          fields: url.searchParams.get('fields'),
          tag: request.headers['x-request-tag'],
        });
      }
      json(405, { error: 'not here' });
    });
    t = await createTestApp({
      env: {
        AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
        AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
        AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
        // Loopback servers stand in for the outside world only where the operator allows private addresses.
        AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
      },
      captureLogs: true,
    });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
    await api?.close();
  });
  beforeEach(() => fake.reset());

  const create = (plugin: Record<string, unknown>) =>
    t.inject({
      method: 'POST',
      url: '/v1/agents',
      payload: { name: 'Pets', plugins: [{ name: 'openapi', ...plugin }] },
    });

  async function callThroughModel(agentId: string, calls: Array<{ name: string; input: unknown }>) {
    fake.enqueue({ toolCalls: calls }, { reply: 'Done.' });
    const response = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agentId}/messages`,
      payload: { text: 'Go', userId: 'u1' },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response;
  }

  it('makes each allowed operation a tool the model can call, with the API key it never sees', async () => {
    const created = await create({
      config: { document: petsDocument, baseUrl: api.origin, operations: ['listPets', 'createPet', 'getPet'] },
      secrets: { petKey },
    });
    assert.equal(created.statusCode, 201, created.body);
    const agent = created.json();
    const response = await callThroughModel(agent.id, [
      { name: 'getPet', input: { petId: 7, fields: ['name', 'age'], 'X-Request-Tag': 'morning' } },
      { name: 'listPets', input: { limit: 1 } },
      {
        name: 'createPet',
        input: { body: { name: 'Kit', tags: [{ label: 'small', children: [{ label: 'tiny' }] }] } },
      },
      { name: 'getPet', input: { petId: 404 } },
      { name: 'deletePet', input: { petId: 7 } },
    ]);

    const offered = fake.requests[0]!.offeredTools;
    assert.deepEqual(offered.map((tool) => tool.name).sort(), ['createPet', 'getPet', 'listPets']);
    const getPet = offered.find((tool) => tool.name === 'getPet')!;
    assert.equal(getPet.description, 'GET /pets/{petId}: Finds a pet.\n\nFinds a pet by its number.');
    const getSchema = getPet.parameters as { properties: Record<string, any>; required: string[] };
    assert.deepEqual(Object.keys(getSchema.properties).sort(), ['X-Request-Tag', 'fields', 'petId']);
    assert.deepEqual(getSchema.required, ['petId']);
    assert.equal(getSchema.properties['X-Request-Tag'].description, 'A tag for the log.');
    const createSchema = offered.find((tool) => tool.name === 'createPet')!.parameters as any;
    assert.deepEqual(createSchema.required, ['body']);
    assert.deepEqual(
      Object.keys(createSchema.properties.body.properties).sort(),
      ['name', 'tags'],
      'read-only id left out',
    );
    const tag = createSchema.properties.body.properties.tags.items;
    assert.equal(tag.properties.label.type, 'string', 'the $ref is resolved');
    assert.deepEqual(tag.properties.children.items, {}, 'the cycle is cut where it comes back');
    assert.ok(!JSON.stringify(offered).includes('$ref'));

    const [found, listed, added, missing, hidden] = response.json().toolCalls;
    assert.equal(found.output.status, 200, JSON.stringify(found));
    assert.deepEqual(JSON.parse(found.output.text), { id: 7, name: 'Tom', fields: 'name,age', tag: 'morning' });
    assert.deepEqual(JSON.parse(listed.output.text), [{ id: 1, name: 'Rex' }]);
    assert.equal(added.output.status, 201);
    assert.deepEqual(JSON.parse(added.output.text).tags, [{ label: 'small', children: [{ label: 'tiny' }] }]);
    assert.equal(missing.output.status, 404, 'a non-2xx answer reaches the model as a result');
    assert.deepEqual(JSON.parse(missing.output.text), { error: 'no pet 404' });
    assert.match(hidden.error, /no tool named deletePet/);

    const received = api.received.filter((request) => request.path.startsWith('/pets'));
    assert.deepEqual(
      received.map((request) => `${request.method} ${request.path}`),
      ['GET /pets/7?fields=name%2Cage', 'GET /pets?limit=1', 'POST /pets', 'GET /pets/404'],
    );
    assert.equal(received[2]!.headers['content-type'], 'application/json');
    for (const request of received) assert.equal(request.headers['x-api-key'], petKey);

    const sent = JSON.stringify(fake.requests.map((request) => request.body));
    assert.ok(sent.includes('no pet 404'), 'the 404 answer went back to the model');
    assert.ok(!sent.includes(petKey), 'no request to the provider carries the API key');
    assert.ok(!response.body.includes(petKey) && !JSON.stringify(agent).includes(petKey));
    assert.ok(!t.logs!.text().includes(petKey), 'the log never carries the API key');
  });

  it('reads a 3.0 YAML document from a URL, with its server and a bearer scheme', async () => {
    const created = await create({ config: { url: `${api.origin}/docs/store.yaml` }, secrets: { token: bearer } });
    assert.equal(created.statusCode, 201, created.body);
    const response = await callThroughModel(created.json().id, [
      { name: 'updateOrder', input: { orderId: 'a/b', body: { note: null } } },
    ]);
    const offered = fake.requests[0]!.offeredTools;
    assert.deepEqual(
      offered.map((tool) => tool.name),
      ['updateOrder'],
    );
    const note = (offered[0]!.parameters as any).properties.body.properties.note;
    assert.deepEqual(note.type, ['string', 'null'], 'nullable said the JSON Schema way');
    const [update] = response.json().toolCalls;
    assert.equal(update.output.status, 200, JSON.stringify(update));
    assert.deepEqual(JSON.parse(update.output.text), { changed: 'a%2Fb', with: { note: null } });
    assert.equal(api.received.at(-1)!.headers.authorization, `Bearer ${bearer}`);
    assert.ok(!JSON.stringify(fake.requests.map((request) => request.body)).includes(bearer));
  });

  it('refuses a document that does not parse, is not valid or leaves nothing to call, at a pointer into config', async () => {
    const before = (await t.inject({ method: 'GET', url: '/v1/agents?limit=100' })).json().pagination.total;
    const refusals: Array<[Record<string, unknown>, string, RegExp]> = [
      [{}, '/config', /needs a config/],
      [{ config: { document: 'openapi: [3.1\n  nope: {' } }, '/config/document', /is not JSON or YAML/],
      [{ config: { document: { swagger: '2.0' } } }, '/config/document', /not an OpenAPI 3\.0 or 3\.1 document/],
      [
        {
          config: { document: { openapi: '3.1.0', info: { title: 'x' }, paths: { '/a': { get: { responses: 7 } } } } },
        },
        '/config/document',
        /is not a valid OpenAPI document/,
      ],
      [
        {
          config: {
            document: {
              ...petsDocument,
              paths: { '/a': { get: { parameters: [{ $ref: '#/nowhere' }], responses: {} } } },
            },
          },
        },
        '/config/document',
        /nowhere/,
      ],
      [{ config: { document: petsDocument } }, '/config/baseUrl', /names no server/],
      [
        {
          config: {
            baseUrl: api.origin,
            document: {
              ...petsDocument,
              paths: {
                '/upload': {
                  post: {
                    requestBody: { required: true, content: { 'multipart/form-data': { schema: {} } } },
                    responses: { '200': { description: 'Stored.' } },
                  },
                },
              },
            },
          },
        },
        '/config/document',
        /leaves no operation that can be called \(post \/upload: its request body is not JSON/,
      ],
      [
        { config: { document: petsDocument, baseUrl: api.origin, operations: ['adoptPet'] } },
        '/config/operations/0',
        /not an operation/,
      ],
      [{ config: { url: `${api.origin}/docs/missing.yaml` } }, '/config/url', /answered 404/],
      [
        { config: { document: petsDocument, url: `${api.origin}/docs/store.yaml` } },
        '/config',
        /either `document` or `url`/,
      ],
      [
        { config: { document: petsDocument, baseUrl: api.origin }, secrets: { apiKey: 'x' } },
        '/secrets/apiKey',
        /petKey/,
      ],
    ];
    for (const [plugin, path, message] of refusals) {
      const response = await create(plugin);
      assert.equal(response.statusCode, 400, `${path}: ${response.body}`);
      assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
      const [error] = response.json().errors;
      assert.equal(error.path, `/body/plugins/0${path}`, response.body);
      assert.match(error.message, message);
    }
    assert.equal((await t.inject({ method: 'GET', url: '/v1/agents?limit=100' })).json().pagination.total, before);

    const agent = await t.newAgent({ plugins: [{ name: 'math' }] });
    const patch = await t.inject({
      method: 'PATCH',
      url: `/v1/agents/${agent.id}`,
      payload: { plugins: [{ name: 'openapi', config: { document: 'not: [an openapi' } }] },
    });
    assert.equal(patch.statusCode, 400, patch.body);
    assert.equal(patch.json().errors[0].path, '/body/plugins/0/config/document');
    const unchanged = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` })).json();
    assert.deepEqual(
      unchanged.plugins.map((plugin: { name: string }) => plugin.name),
      ['math'],
    );
  });

  it('is listed by GET /v1/plugins with its config schema', async () => {
    const plugins = (await t.inject({ method: 'GET', url: '/v1/plugins' })).json().data;
    const openapi = plugins.find((plugin: { name: string }) => plugin.name === 'openapi');
    assert.ok(openapi, 'listed');
    assert.deepEqual(Object.keys(openapi.configSchema.properties).sort(), [
      'baseUrl',
      'document',
      'maxResponseBytes',
      'operations',
      'prefix',
      'timeoutMs',
      'url',
    ]);
    assert.equal(openapi.configSchema.required, undefined);
  });
});

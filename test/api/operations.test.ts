import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('operations endpoints', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t?.close());

  it('reports liveness and readiness without a key', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
    assert.deepEqual(health.json(), { status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ok', checks: { database: 'ok' } });
    assert.equal(ready.headers['x-ratelimit-limit'], undefined);
  });

  it('is not ready when the database is gone', async () => {
    const broken = await createTestApp();
    await broken.deps.database.close();
    try {
      const ready = await broken.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json(), { status: 'unavailable', checks: { database: 'unavailable' } });
    } finally {
      await broken.close();
    }
  });

  it('counts requests by route template and status in Prometheus format', async () => {
    const agent = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'metered' } })).json();
    await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` });
    await t.inject({ method: 'GET', url: '/v1/agents/agt_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(metrics.statusCode, 200);
    assert.match(String(metrics.headers['content-type']), /^text\/plain/);
    assert.match(
      metrics.body,
      /agentd_http_requests_total\{method="GET",route="\/v1\/agents\/:agentId",status="200"\} 1/,
    );
    assert.match(
      metrics.body,
      /agentd_http_requests_total\{method="GET",route="\/v1\/agents\/:agentId",status="404"\} 1/,
    );
    assert.match(
      metrics.body,
      /agentd_http_request_duration_seconds_bucket\{le="0.005",method="POST",route="\/v1\/agents",status="201"\}/,
    );
    assert.match(
      metrics.body,
      /agentd_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/v1\/agents\/:agentId",status="200"\} 1/,
    );
    assert.match(
      metrics.body,
      /agentd_http_request_duration_seconds_count\{method="GET",route="\/v1\/agents\/:agentId",status="200"\} 1/,
    );
    assert.match(
      metrics.body,
      /agentd_http_request_duration_seconds_sum\{method="GET",route="\/v1\/agents\/:agentId",status="200"\} 0\.\d+/,
    );
    assert.match(metrics.body, /# TYPE agentd_http_request_duration_seconds histogram/);
    assert.match(metrics.body, /agentd_process_cpu_seconds_total/);
    assert.ok(!metrics.body.includes(agent.id), 'labels hold route templates, never ids');
  });

  it('publishes an OpenAPI 3.1 document generated from the validating schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(response.statusCode, 200);
    const document = response.json();
    assert.equal(document.openapi, '3.1.0');
    assert.ok(document.components.schemas.Agent);
    assert.ok(document.components.schemas.Problem);
    const create = document.paths['/v1/agents'].post;
    const body = create.requestBody.content['application/json'].schema;
    assert.equal(body.additionalProperties, false);
    assert.equal(body.properties.name.maxLength, 100);
    assert.deepEqual(body.required, ['name']);
    assert.equal(create.responses['201'].content['application/json'].schema.$ref, '#/components/schemas/Agent');
    assert.equal(create.responses['429'].content['application/json'].schema.$ref, '#/components/schemas/Problem');
    const list = document.paths['/v1/agents'].get;
    const limit = list.parameters.find((parameter: { name: string }) => parameter.name === 'limit');
    assert.equal(limit.schema.maximum, 100);
    assert.equal(document.paths['/healthz'].get.security.length, 0);
    assert.deepEqual(document.security, [{ bearerAuth: [] }]);
  });

  it('documents every error code where problem types point', async () => {
    const problem = (await t.app.inject({ method: 'GET', url: '/v1/agents' })).json();
    const [page, anchor] = problem.type.split('#');
    const response = await t.app.inject({ method: 'GET', url: page });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /text\/html/);
    for (const code of ['unauthorized', 'validation_failed', 'provider_unavailable', anchor]) {
      assert.ok(response.body.includes(`id="${code}"`), code);
    }
  });

  it('serves the interactive reference at /docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /text\/html/);
  });
});

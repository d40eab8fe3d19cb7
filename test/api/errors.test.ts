import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

function assertProblem(
  response: { statusCode: number; headers: Record<string, unknown>; json(): any },
  status: number,
  code: string,
) {
  assert.equal(response.statusCode, status);
  assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
  const problem = response.json();
  assert.equal(problem.status, status);
  assert.equal(problem.code, code);
  assert.equal(problem.type, `/docs/errors#${code}`);
  assert.equal(typeof problem.title, 'string');
  assert.equal(typeof problem.detail, 'string');
  assert.equal(problem.requestId, response.headers['x-request-id']);
  return problem;
}

describe('errors are problem+json', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { AGENTD_BODY_LIMIT_BYTES: '4096' } });
  });
  after(async () => t?.close());

  it('400 invalid_json for a body that is not JSON', async () => {
    for (const payload of ['{"name": ', '{name: "x"}', '']) {
      const response = await t.inject({
        method: 'POST',
        url: '/v1/agents',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      assertProblem(response, 400, 'invalid_json');
    }
  });

  it('400 for JSON that tries prototype pollution', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/v1/agents',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"x","__proto__":{"admin":true}}',
    });
    assert.equal(response.statusCode, 400);
  });

  it('400 validation_failed lists every problem with a JSON pointer', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/v1/agents',
      payload: { bio: 7, personality: { traits: 'x', mood: 'sad' }, knowledge: [{ content: '' }], platforms: [{}] },
    });
    const problem = assertProblem(response, 400, 'validation_failed');
    const paths = problem.errors.map((error: { path: string }) => error.path).sort();
    assert.deepEqual(paths, [
      '/body/bio',
      '/body/knowledge/0/content',
      '/body/name',
      '/body/personality/mood',
      '/body/personality/traits',
      '/body/platforms/0/type',
    ]);
    assert.match(problem.detail, /name is required/);
  });

  it('400 for query values out of range, with the query pointer', async () => {
    const problem = assertProblem(
      await t.inject({ method: 'GET', url: '/v1/agents?limit=101' }),
      400,
      'validation_failed',
    );
    assert.deepEqual(problem.errors, [{ path: '/query/limit', code: 'too_large', message: 'must be at most 100' }]);
    assert.equal(problem.detail, 'limit must be at most 100');
  });

  it('413 payload_too_large over the body limit', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/v1/agents',
      payload: { name: 'x', system: 'y'.repeat(5000) },
    });
    assertProblem(response, 413, 'payload_too_large');
  });

  it('415 unsupported_media_type for bodies that are not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const response = await t.inject({
        method: 'POST',
        url: '/v1/agents',
        headers: { 'content-type': type },
        payload: 'name=x',
      });
      assertProblem(response, 415, 'unsupported_media_type');
    }
  });

  it('accepts application/merge-patch+json on PATCH', async () => {
    const agent = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'mp' } })).json();
    const response = await t.inject({
      method: 'PATCH',
      url: `/v1/agents/${agent.id}`,
      headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' },
      payload: '{"name":"merged"}',
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().name, 'merged');
  });

  it('404 not_found for unknown routes and unknown ids', async () => {
    assertProblem(await t.inject({ method: 'GET', url: '/v1/nothing-here' }), 404, 'not_found');
    assertProblem(await t.inject({ method: 'PUT', url: '/v1/agents' }), 404, 'not_found');
    assertProblem(
      await t.inject({ method: 'GET', url: '/v1/agents/agt_01ARZ3NDEKTSV4RRFFQ69G5FAV' }),
      404,
      'not_found',
    );
    assertProblem(await t.inject({ method: 'GET', url: '/v1/agents/not-an-id' }), 404, 'not_found');
  });

  it('echoes a client X-Request-Id and generates one otherwise', async () => {
    const echoed = await t.inject({ method: 'GET', url: '/v1/agents', headers: { 'x-request-id': 'trace-123' } });
    assert.equal(echoed.headers['x-request-id'], 'trace-123');
    const generated = await t.inject({ method: 'GET', url: '/v1/agents' });
    assert.match(String(generated.headers['x-request-id']), /^req_[0-9a-f]{16}[0-9a-z]{8,}$/);
    assert.notEqual(
      generated.headers['x-request-id'],
      (await t.inject({ method: 'GET', url: '/v1/agents' })).headers['x-request-id'],
    );
    const unsafe = await t.inject({
      method: 'GET',
      url: '/v1/agents',
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    assert.match(String(unsafe.headers['x-request-id']), /^req_/);
    const healthz = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.ok(healthz.headers['x-request-id']);
  });

  it('500 internal hides the failure and the process keeps serving', async () => {
    const broken = await createTestApp();
    try {
      await broken.deps.database.close();
      const response = await broken.inject({ method: 'GET', url: '/v1/agents' });
      const problem = assertProblem(response, 500, 'internal');
      assert.ok(!/sqlite|kysely|stack|at /i.test(problem.detail), problem.detail);
      const health = await broken.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(health.statusCode, 200);
    } finally {
      await broken.close();
    }
  });

  it('never answers 500 to any body a client can send', async () => {
    const agent = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'target' } })).json();
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom('POST', 'PATCH'), async (body, method) => {
        const response = await t.inject({
          method,
          url: method === 'POST' ? '/v1/agents' : `/v1/agents/${agent.id}`,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(body) ?? 'null',
        });
        assert.ok(
          response.statusCode < 500,
          `${method} ${JSON.stringify(body)} → ${response.statusCode} ${response.body}`,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('never answers 500 to any list query', async () => {
    const parameter = fc.constantFrom('page', 'limit', 'status', 'sortBy', 'order', 'cursor', 'x');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(parameter, fc.string({ maxLength: 30 })), { maxLength: 4 }), async (pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const response = await t.inject({ method: 'GET', url: `/v1/agents?${query}` });
        assert.ok(
          response.statusCode === 200 || response.statusCode === 400,
          `${query} → ${response.statusCode} ${response.body}`,
        );
      }),
      { numRuns: 300 },
    );
  });
});

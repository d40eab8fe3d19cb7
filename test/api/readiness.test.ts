import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { unusedPort } from '../helpers/network.js';

for (const backend of backends) {
  describe(`readiness on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
    });
    after(async () => t?.close());

    it('reports what the instance depends on in /readyz', async () => {
      const response = await t.inject({ method: 'GET', url: '/readyz' });
      assert.equal(response.statusCode, 200);
      const expected: Record<string, string> = { database: 'ok' };
      if (t.config.redis) expected.redis = 'ok';
      assert.deepEqual(response.json(), { status: 'ok', checks: expected });
    });
  });
}

describe('an instance whose Redis is unreachable', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${await unusedPort()}`, AGENTD_RATE_LIMITS: 'createAgent=2' },
      limits: { connectWaitMs: 100 },
    });
  });
  after(async () => t?.close());

  it('is ready but degraded, and reports Redis as unavailable', async () => {
    const response = await t.inject({ method: 'GET', url: '/readyz' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'degraded', checks: { database: 'ok', redis: 'unavailable' } });
  });

  it('keeps serving with the limits of this instance, never a 500', async () => {
    const statuses = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: `fallback ${index}` } });
      statuses.push(response.statusCode);
      assert.equal(response.headers['x-ratelimit-limit'], '2');
    }
    assert.deepEqual(statuses, [201, 201, 429]);
  });
});

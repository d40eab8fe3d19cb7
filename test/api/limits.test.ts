import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { unusedPort } from '../helpers/redis.js';

for (const backend of backends) {
  describe(`rate limits and readiness on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name, env: { AGENTD_RATE_LIMITS: 'createAgent=10,listAgents=5' } });
    });
    after(async () => t?.close());

    it('lets exactly 10 of 100 simultaneous creates through', async () => {
      const account = await t.newAccount();
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          t.inject({ method: 'POST', url: '/v1/agents', payload: { name: `burst ${index}` }, as: account }),
        ),
      );
      const created = responses.filter((response) => response.statusCode === 201);
      const limited = responses.filter((response) => response.statusCode === 429);
      assert.equal(created.length, 10);
      assert.equal(limited.length, 90);

      const nowSeconds = Date.now() / 1000;
      for (const response of limited) {
        assert.equal(response.json().code, 'rate_limited');
        assert.equal(response.headers['x-ratelimit-limit'], '10');
        assert.equal(response.headers['x-ratelimit-remaining'], '0');
        const retryAfter = Number(response.headers['retry-after']);
        assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
        const reset = Number(response.headers['x-ratelimit-reset']);
        assert.ok(reset > nowSeconds && reset <= nowSeconds + 61, `X-RateLimit-Reset ${reset} is within the next minute`);
      }
      assert.deepEqual(
        created.map((response) => Number(response.headers['x-ratelimit-remaining'])).sort((a, b) => a - b),
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      );

      const listed = await t.inject({ method: 'GET', url: '/v1/agents?limit=100', as: account });
      assert.equal(listed.json().pagination.total, 10, 'only the allowed creates stored an agent');
    });

    it('counts each account and each operation on its own', async () => {
      const [first, second] = [await t.newAccount(), await t.newAccount()];
      for (let index = 0; index < 5; index += 1) {
        assert.equal((await t.inject({ method: 'GET', url: '/v1/agents', as: first })).statusCode, 200);
      }
      assert.equal((await t.inject({ method: 'GET', url: '/v1/agents', as: first })).statusCode, 429);
      assert.equal((await t.inject({ method: 'GET', url: '/v1/agents', as: second })).statusCode, 200);
      const create = await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'still allowed' }, as: first });
      assert.equal(create.statusCode, 201);
      assert.equal(create.headers['x-ratelimit-remaining'], '9');
    });

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

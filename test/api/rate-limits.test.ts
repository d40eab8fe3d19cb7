import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends, createTestApp, ManualClock, type TestAccount, type TestApp } from '../helpers/test-app.js';

/** `count` creates at once for `account`: the ones that got through and the ones refused with 429. */
async function burstOfCreates(t: TestApp, account: TestAccount, count: number) {
  const responses = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      t.inject({ method: 'POST', url: '/v1/agents', payload: { name: `burst ${index}` }, as: account }),
    ),
  );
  return {
    created: responses.filter((response) => response.statusCode === 201),
    limited: responses.filter((response) => response.statusCode === 429),
  };
}

for (const backend of backends) {
  describe(`rate limits with the contract's defaults on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      // No AGENTD_RATE_LIMITS: the defaults of the contract apply.
      t = await createTestApp({ backend: backend.name, env: { AGENTD_RATE_LIMITS: '' } });
    });
    after(async () => t?.close());

    it('lets exactly 10 of 30 simultaneous creates through', async () => {
      const account = await t.newAccount();
      const { created, limited } = await burstOfCreates(t, account, 30);
      assert.equal(created.length, 10);
      assert.equal(limited.length, 20);
      for (const response of limited) {
        assert.equal(response.json().code, 'rate_limited');
        const retryAfter = Number(response.headers['retry-after']);
        assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
        assert.equal(response.headers['x-ratelimit-remaining'], '0');
      }
      const list = (await t.inject({ method: 'GET', url: '/v1/agents', as: account })).json();
      assert.equal(list.pagination.total, 10, 'the refused creates changed nothing');
    });

    it('counts 100 simultaneous creates exactly, each allowed one seeing its own remaining count', async () => {
      const account = await t.newAccount();
      const responses = await Promise.all(
        Array.from({ length: 100 }, () =>
          t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'x' }, as: account }),
        ),
      );
      const created = responses.filter((response) => response.statusCode === 201);
      assert.equal(created.length, 10);
      assert.deepEqual(
        created.map((response) => Number(response.headers['x-ratelimit-remaining'])).sort((a, b) => a - b),
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      );
    });

    it('keeps each operation and each account on its own budget', async () => {
      const first = await t.newAccount();
      const second = await t.newAccount();
      for (let index = 0; index < 10; index += 1) {
        await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'x' }, as: first });
      }
      assert.equal(
        (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'x' }, as: first })).statusCode,
        429,
      );
      assert.equal((await t.inject({ method: 'GET', url: '/v1/agents', as: first })).statusCode, 200);
      assert.equal(
        (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'x' }, as: second })).statusCode,
        201,
      );
    });

    it('applies the per-minute limits of get, update and delete', async () => {
      const account = await t.newAccount();
      const agent = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'x' }, as: account })).json();
      for (const [method, limit, payload] of [
        ['GET', 60, undefined],
        ['PATCH', 30, { metadata: { n: 'x' } }],
      ] as const) {
        const responses = await Promise.all(
          Array.from({ length: limit + 1 }, () =>
            t.inject({ method, url: `/v1/agents/${agent.id}`, ...(payload ? { payload } : {}), as: account }),
          ),
        );
        assert.equal(responses.filter((response) => response.statusCode === 429).length, 1, method);
        assert.equal(responses[0]?.headers['x-ratelimit-limit'], String(limit), method);
      }
      const deletes = await Promise.all(
        Array.from({ length: 11 }, () =>
          t.inject({ method: 'DELETE', url: '/v1/agents/agt_01ARZ3NDEKTSV4RRFFQ69G5FAV', as: account }),
        ),
      );
      assert.equal(deletes.filter((response) => response.statusCode === 429).length, 1);
      assert.equal(deletes.filter((response) => response.statusCode === 404).length, 10);
    });
  });
}

describe('rate limits over time (in-process limiter, manual clock)', () => {
  let t: TestApp;
  let clock: ManualClock;
  before(async () => {
    clock = new ManualClock();
    t = await createTestApp({ clock, env: { AGENTD_RATE_LIMITS: '' } });
  });
  after(async () => t?.close());

  it('says to retry in 60 s after a burst, and recovers after a minute', async () => {
    const account = await t.newAccount();
    const { created, limited } = await burstOfCreates(t, account, 30);
    assert.equal(created.length, 10);
    assert.equal(limited.length, 20);
    for (const response of limited) {
      const problem = response.json();
      assert.equal(problem.code, 'rate_limited');
      assert.equal(response.headers['retry-after'], '60');
      assert.equal(response.headers['x-ratelimit-remaining'], '0');
    }
    const list = (await t.inject({ method: 'GET', url: '/v1/agents', as: account })).json();
    assert.equal(list.pagination.total, 10, 'the refused creates changed nothing');

    clock.advance(60_000);
    const again = await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'later' }, as: account });
    assert.equal(again.statusCode, 201);
  });

  it('sends the limit, what remains and the reset time on every authenticated response', async () => {
    const account = await t.newAccount();
    const start = clock.now();
    const first = await t.inject({ method: 'GET', url: '/v1/agents', as: account });
    assert.equal(first.headers['x-ratelimit-limit'], '60');
    assert.equal(first.headers['x-ratelimit-remaining'], '59');
    assert.equal(first.headers['x-ratelimit-reset'], String(Math.ceil((start + 60_000) / 1000)));
    const second = await t.inject({ method: 'GET', url: '/v1/agents', as: account });
    assert.equal(second.headers['x-ratelimit-remaining'], '58');
    const missing = await t.inject({ method: 'GET', url: '/v1/agents/agt_01ARZ3NDEKTSV4RRFFQ69G5FAV', as: account });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['x-ratelimit-limit'], '60', 'errors carry the headers of the get limit');
    const invalid = await t.inject({ method: 'POST', url: '/v1/agents', payload: {}, as: account });
    assert.equal(invalid.statusCode, 400);
    assert.equal(invalid.headers['x-ratelimit-limit'], '10');
  });
});

describe('rate limit configuration', () => {
  it('takes overrides from AGENTD_RATE_LIMITS', async () => {
    const t = await createTestApp({ env: { AGENTD_RATE_LIMITS: 'createAgent=2' } });
    try {
      const statuses = [];
      for (let index = 0; index < 3; index += 1) {
        statuses.push((await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'x' } })).statusCode);
      }
      assert.deepEqual(statuses, [201, 201, 429]);
      const list = await t.inject({ method: 'GET', url: '/v1/agents' });
      assert.equal(list.headers['x-ratelimit-limit'], '60', 'limits not named keep their defaults');
    } finally {
      await t.close();
    }
  });

  it('switches every limit off with "off"', async () => {
    const t = await createTestApp({ env: { AGENTD_RATE_LIMITS: 'off' } });
    try {
      const responses = await Promise.all(
        Array.from({ length: 25 }, () => t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'x' } })),
      );
      assert.ok(responses.every((response) => response.statusCode === 201));
      assert.equal(responses[0]?.headers['x-ratelimit-limit'], undefined);
    } finally {
      await t.close();
    }
  });
});

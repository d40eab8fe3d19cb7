import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { newId } from '../../src/ids.js';
import { profileFromCreate } from '../../src/services/agents/agent-profile.js';
import { nameSortKey, type AgentRecord, type AgentStatus } from '../../src/storage/repositories/agents.js';
import { backends, createTestApp, type TestAccount, type TestApp } from '../helpers/test-app.js';

const statuses: AgentStatus[] = ['active', 'inactive', 'error'];
const sortFields = ['createdAt', 'name', 'status'] as const;
const orders = ['asc', 'desc'] as const;

/** Byte order of UTF-8, the order both databases compare text in. */
function compareText(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function expectedOrder(agents: AgentRecord[], sortBy: (typeof sortFields)[number], order: 'asc' | 'desc'): string[] {
  const key = (agent: AgentRecord) =>
    sortBy === 'name' ? nameSortKey(agent.name) : sortBy === 'status' ? agent.status : agent.createdAt;
  const direction = order === 'asc' ? 1 : -1;
  return [...agents]
    .sort((a, b) => direction * (compareText(key(a), key(b)) || compareText(a.id, b.id)))
    .map((agent) => agent.id);
}

/** Agents with few distinct names, statuses and creation times, so every sort key has ties. */
const agentSpecs = fc.array(
  fc.record({
    name: fc.constantFrom('ava', 'Ava', 'bob', 'Émile', 'zed', 'Zed', '1st'),
    status: fc.constantFrom(...statuses),
    second: fc.integer({ min: 0, max: 3 }),
  }),
  { maxLength: 30 },
);

for (const backend of backends) {
  describe(`listing agents on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
    });
    after(async () => t?.close());

    async function seed(account: TestAccount, specs: Array<{ name: string; status: AgentStatus; second: number }>) {
      const records: AgentRecord[] = [];
      for (const spec of specs) {
        const createdAt = new Date(Date.UTC(2026, 10, 22, 10, 0, spec.second)).toISOString();
        const id = newId('agent');
        const record: AgentRecord = {
          id,
          accountId: account.accountId,
          name: spec.name,
          status: spec.status,
          statusReason: spec.status === 'error' ? 'seeded' : null,
          deletionProtection: false,
          profile: profileFromCreate(t.deps.services, id, { name: spec.name }),
          version: 1,
          createdAt,
          updatedAt: createdAt,
        };
        await t.deps.services.repositories.agents.insert(record);
        records.push(record);
      }
      return records;
    }

    async function list(account: TestAccount, query: string) {
      const response = await t.inject({ method: 'GET', url: `/v1/agents?${query}`, as: account });
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as { data: Array<{ id: string }>; pagination: any };
    }

    it('visits every agent exactly once, by page and by cursor, for every sort, order and filter', async () => {
      await fc.assert(
        fc.asyncProperty(agentSpecs, fc.integer({ min: 1, max: 7 }), async (specs, limit) => {
          const account = await t.newAccount();
          const agents = await seed(account, specs);
          for (const status of [undefined, ...statuses]) {
            const matching = agents.filter((agent) => status === undefined || agent.status === status);
            for (const sortBy of sortFields) {
              for (const order of orders) {
                const base = `limit=${limit}&sortBy=${sortBy}&order=${order}${status ? `&status=${status}` : ''}`;
                const expected = expectedOrder(matching, sortBy, order);
                const label = `${base} over ${matching.length}`;

                const byPage: string[] = [];
                const first = await list(account, base);
                const totalPages = Math.ceil(matching.length / limit);
                assert.equal(first.pagination.total, matching.length, label);
                assert.equal(first.pagination.totalPages, totalPages, label);
                for (let page = 1; page <= totalPages + 1; page += 1) {
                  const body = page === 1 ? first : await list(account, `${base}&page=${page}`);
                  assert.equal(body.pagination.page, page, label);
                  assert.equal(body.pagination.hasMore, page < totalPages, `${label} page ${page}`);
                  byPage.push(...body.data.map((agent) => agent.id));
                }
                assert.deepEqual(byPage, expected, `pages: ${label}`);

                const byCursor: string[] = [...first.data.map((agent) => agent.id)];
                let cursor: string | null = first.pagination.nextCursor;
                let page = 1;
                while (cursor !== null) {
                  const body = await list(account, `limit=${limit}&cursor=${encodeURIComponent(cursor)}`);
                  page += 1;
                  assert.equal(body.pagination.page, page, label);
                  byCursor.push(...body.data.map((agent) => agent.id));
                  cursor = body.pagination.nextCursor;
                  assert.ok(page <= totalPages + 1, `cursor walk ends: ${label}`);
                }
                assert.deepEqual(byCursor, expected, `cursor: ${label}`);
              }
            }
          }
        }),
        { numRuns: 12 },
      );
    });

    it('uses 20 as the default page size and accepts 1 to 100', async () => {
      const account = await t.newAccount();
      await seed(
        account,
        Array.from({ length: 25 }, (_, index) => ({ name: `a${index}`, status: 'active' as const, second: 0 })),
      );
      assert.equal((await list(account, '')).data.length, 20);
      assert.equal((await list(account, 'limit=100')).data.length, 25);
      assert.equal((await list(account, 'limit=1')).data.length, 1);
      for (const limit of ['0', '101', 'abc', '-1', '1.5']) {
        const response = await t.inject({ method: 'GET', url: `/v1/agents?limit=${limit}`, as: account });
        assert.equal(response.statusCode, 400, `limit=${limit}`);
        assert.equal(response.json().errors[0].path, '/query/limit');
      }
    });

    it('rejects unknown sort fields, orders, statuses and parameters', async () => {
      const account = await t.newAccount();
      for (const [query, path] of [
        ['sortBy=updatedAt', '/query/sortBy'],
        ['order=up', '/query/order'],
        ['status=deleted', '/query/status'],
        ['page=0', '/query/page'],
        ['sortby=name', '/query/sortby'],
      ]) {
        const response = await t.inject({ method: 'GET', url: `/v1/agents?${query}`, as: account });
        assert.equal(response.statusCode, 400, query);
        assert.equal(response.json().errors[0].path, path, query);
      }
    });

    it('rejects a forged cursor and one used with another sort', async () => {
      const account = await t.newAccount();
      await seed(account, [
        { name: 'a', status: 'active', second: 0 },
        { name: 'b', status: 'active', second: 1 },
      ]);
      const first = await list(account, 'limit=1&sortBy=name');
      const cursor = first.pagination.nextCursor as string;
      const mismatch = await t.inject({
        method: 'GET',
        url: `/v1/agents?cursor=${cursor}&sortBy=createdAt`,
        as: account,
      });
      assert.equal(mismatch.statusCode, 400);
      assert.equal(mismatch.json().errors[0].path, '/query/sortBy');
      const same = await t.inject({
        method: 'GET',
        url: `/v1/agents?cursor=${cursor}&sortBy=name&limit=1`,
        as: account,
      });
      assert.equal(same.statusCode, 200);
      for (const forged of [
        'not-a-cursor',
        Buffer.from('[2,"x"]').toString('base64url'),
        Buffer.from('{}').toString('base64url'),
      ]) {
        const response = await t.inject({ method: 'GET', url: `/v1/agents?cursor=${forged}`, as: account });
        assert.equal(response.statusCode, 400, forged);
        assert.equal(response.json().errors[0].path, '/query/cursor');
      }
    });

    it('counts by status from the maintained counts, also after updates and deletes', async () => {
      const account = await t.newAccount();
      const agents = await seed(
        account,
        Array.from({ length: 9 }, (_, index) => ({
          name: `n${index}`,
          status: statuses[index % 3] as AgentStatus,
          second: index,
        })),
      );
      const [first, second] = agents.filter((agent) => agent.status === 'active');
      await t.inject({ method: 'PATCH', url: `/v1/agents/${first?.id}`, payload: { status: 'inactive' }, as: account });
      await t.inject({ method: 'DELETE', url: `/v1/agents/${second?.id}`, as: account });
      assert.equal((await list(account, 'status=active')).pagination.total, 1);
      assert.equal((await list(account, 'status=inactive')).pagination.total, 4);
      assert.equal((await list(account, 'status=error')).pagination.total, 3);
      assert.equal((await list(account, '')).pagination.total, 8);
    });

    it('answers a page past the end with no agents', async () => {
      const account = await t.newAccount();
      await seed(account, [{ name: 'only', status: 'active', second: 0 }]);
      const body = await list(account, 'page=5');
      assert.deepEqual(body.data, []);
      assert.equal(body.pagination.total, 1);
      assert.equal(body.pagination.hasMore, false);
      assert.equal(body.pagination.nextCursor, null);
    });
  });
}

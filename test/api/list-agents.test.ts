import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/ids.js';
import { profileFromCreate } from '../../src/services/agents/agent-profile.js';
import { nameSortKey, type AgentRecord, type AgentStatus } from '../../src/storage/repositories/agents.js';
import { backends, createTestApp, type TestAccount, type TestApp } from '../helpers/test-app.js';

/**
 * Pages by number and by cursor against the order the contract defines, for
 * every sort, order and a status filter. The agents have many equal sort keys
 * (same status, names equal but for case, shared creation times), so ties must
 * be broken by id for pages never to repeat or skip an agent.
 */
const names = ['ava', 'Ava', 'AVA', 'bob', 'Bob', 'chloé', 'dmitri', 'Zed'];
const statuses: AgentStatus[] = ['active', 'inactive', 'error'];
const agentCount = 57;
const pageSize = 7;

type SortBy = 'createdAt' | 'name' | 'status';
const sortKey: Record<SortBy, (agent: AgentRecord) => string> = {
  createdAt: (agent) => agent.createdAt,
  name: (agent) => nameSortKey(agent.name),
  status: (agent) => agent.status,
};

function expectedOrder(agents: AgentRecord[], sortBy: SortBy, order: 'asc' | 'desc', status?: AgentStatus): string[] {
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sign = order === 'asc' ? 1 : -1;
  return agents
    .filter((agent) => status === undefined || agent.status === status)
    .sort((a, b) => sign * (compare(sortKey[sortBy](a), sortKey[sortBy](b)) || compare(a.id, b.id)))
    .map((agent) => agent.id);
}

for (const backend of backends) {
  describe(`listing agents on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    let account: TestAccount;
    const agents: AgentRecord[] = [];

    before(async () => {
      t = await createTestApp({ backend: backend.name });
      account = await t.newAccount();
      for (let index = 0; index < agentCount; index += 1) {
        const id = newId('agent');
        const name = names[(index * 5) % names.length]!;
        // Four distinct creation times for 57 agents, not in id order.
        const createdAt = new Date(Date.parse('2026-01-01T00:00:00.000Z') + ((index * 7) % 4) * 1000).toISOString();
        agents.push({
          id,
          accountId: account.accountId,
          name,
          status: statuses[(index * 2) % 3]!,
          statusReason: null,
          deletionProtection: false,
          profile: profileFromCreate(t.deps.services, id, { name }),
          version: 1,
          createdAt,
          updatedAt: createdAt,
        });
      }
      await t.deps.services.repositories.agents.insertMany(agents);
    });
    after(async () => t?.close());

    async function list(query: string) {
      const response = await t.inject({ method: 'GET', url: `/v1/agents?${query}`, as: account });
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as {
        data: Array<{ id: string }>;
        pagination: { page: number; total: number; totalPages: number; hasMore: boolean; nextCursor: string | null };
      };
    }

    for (const sortBy of ['createdAt', 'name', 'status'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        for (const status of [undefined, 'inactive'] as const) {
          const filter = `sortBy=${sortBy}&order=${order}${status ? `&status=${status}` : ''}&limit=${pageSize}`;

          it(`pages by number: ${filter}`, async () => {
            const expected = expectedOrder(agents, sortBy, order, status);
            const totalPages = Math.ceil(expected.length / pageSize);
            // Every page, from the first through the middle (offset) to the last (read from the other end), and one past it.
            for (let page = 1; page <= totalPages + 1; page += 1) {
              const body = await list(`${filter}&page=${page}`);
              assert.deepEqual(
                body.data.map((agent) => agent.id),
                expected.slice((page - 1) * pageSize, page * pageSize),
                `page ${page}`,
              );
              assert.equal(body.pagination.total, expected.length);
              assert.equal(body.pagination.totalPages, totalPages);
              assert.equal(body.pagination.hasMore, page < totalPages, `hasMore on page ${page}`);
              assert.equal(body.pagination.nextCursor === null, page >= totalPages);
            }
          });

          it(`walks by cursor: ${filter}`, async () => {
            const expected = expectedOrder(agents, sortBy, order, status);
            const seen: string[] = [];
            let body = await list(filter);
            seen.push(...body.data.map((agent) => agent.id));
            let pages = 1;
            while (body.pagination.nextCursor !== null) {
              body = await list(`limit=${pageSize}&cursor=${body.pagination.nextCursor}`);
              pages += 1;
              assert.equal(body.pagination.page, pages);
              seen.push(...body.data.map((agent) => agent.id));
            }
            assert.deepEqual(seen, expected);
          });
        }
      }
    }

    it('counts by status from the maintained counts, also after updates and deletes', async () => {
      const [first, second] = expectedOrder(agents, 'createdAt', 'asc', 'active');
      await t.inject({ method: 'PATCH', url: `/v1/agents/${first}`, payload: { status: 'inactive' }, as: account });
      await t.inject({ method: 'DELETE', url: `/v1/agents/${second}`, as: account });
      const active = agents.filter((agent) => agent.status === 'active').length;
      const inactive = agents.filter((agent) => agent.status === 'inactive').length;
      assert.equal((await list('status=active')).pagination.total, active - 2);
      assert.equal((await list('status=inactive')).pagination.total, inactive + 1);
      assert.equal((await list('')).pagination.total, agentCount - 1);
    });
  });
}

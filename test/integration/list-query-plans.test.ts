import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { newId } from '../../src/ids.js';
import { profileFromCreate } from '../../src/services/agents/agent-profile.js';
import type { AgentPageQuery, AgentRecord } from '../../src/storage/repositories/agents.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Every list order has an index that yields it: no list query sorts the
 * account's agents, whatever the sort, order, filter and position. (The bench
 * in bench/list-scale shows what that is worth at 1,000,000 agents.)
 */
interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

const shapes: Array<Omit<AgentPageQuery, 'accountId' | 'limit'>> = [];
for (const sortBy of ['createdAt', 'name', 'status'] as const) {
  for (const order of ['asc', 'desc'] as const) {
    for (const status of [undefined, 'inactive'] as const) {
      const base = { sortBy, order, ...(status ? { status } : {}) };
      shapes.push(base, { ...base, after: { key: 'm', id: 'agt_M' } }, { ...base, offset: 40 });
    }
  }
}

function describeShape(shape: (typeof shapes)[number]): string {
  const position = shape.after ? 'after a cursor' : shape.offset ? 'at an offset' : 'first page';
  return `${shape.sortBy} ${shape.order}${shape.status ? ` status=${shape.status}` : ''}, ${position}`;
}

for (const backend of backends) {
  describe(`list query plans on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
      const records: AgentRecord[] = [];
      for (let index = 0; index < 300; index += 1) {
        const id = newId('agent');
        const createdAt = new Date(Date.parse('2026-01-01T00:00:00.000Z') + index * 1000).toISOString();
        records.push({
          id,
          accountId: t.owner.accountId,
          name: `agent ${(index * 7919) % 300}`,
          status: (['active', 'inactive', 'error'] as const)[index % 3]!,
          statusReason: null,
          deletionProtection: false,
          profile: profileFromCreate(t.deps.services, id, { name: 'x' }),
          version: 1,
          createdAt,
          updatedAt: createdAt,
        });
      }
      await t.deps.services.repositories.agents.insertMany(records);
      // SQLite plans are checked as agentd runs them: without statistics (it never runs ANALYZE there).
      if (t.deps.database.dialect === 'postgres') await sql`analyze`.execute(t.deps.database.db);
    });
    after(async () => t?.close());

    for (const shape of shapes) {
      it(`reads ${describeShape(shape)} in index order`, async () => {
        const compiled = t.deps.services.repositories.agents
          .pageQuery({ ...shape, accountId: t.owner.accountId, limit: 21 })
          .compile();

        if (t.deps.database.dialect === 'sqlite') {
          const plan = await t.deps.database.db.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
          );
          const lines = plan.rows.map((row) => row.detail);
          const sorts = lines.filter((line) => line.includes('TEMP B-TREE'));
          if (shape.offset) {
            // The page's rows, found by id, are put in order: a sort of one page only.
            assert.ok(
              lines.some((line) => /COVERING INDEX agents_account_/.test(line)),
              lines.join('\n'),
            );
            assert.ok(sorts.length <= 1, lines.join('\n'));
          } else {
            assert.deepEqual(sorts, [], lines.join('\n'));
          }
          return;
        }

        // With sorting priced out, the planner sorts only where no index gives the order.
        const plan = await t.deps.database.db.transaction().execute(async (transaction) => {
          await sql`set local enable_sort = off`.execute(transaction);
          const result = await transaction.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
            CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
          );
          return result.rows[0]!['QUERY PLAN'][0]!.Plan;
        });
        const limit = nodes(plan).find((node) => node['Node Type'] === 'Limit');
        assert.ok(limit, JSON.stringify(plan));
        const beneathLimit = nodes(limit);
        assert.ok(!beneathLimit.some((node) => node['Node Type'] === 'Sort'), JSON.stringify(plan, null, 1));
        assert.ok(
          beneathLimit.some((node) => node['Index Name'] !== undefined),
          JSON.stringify(plan, null, 1),
        );
      });
    }
  });
}

import type { Kysely, Migration } from 'kysely';
import { metricColumns } from '../repositories/agent-metrics-columns.js';

/**
 * What messages cost: the agent metrics sum each reply's cost in micro-dollars
 * (priced when the reply was made, src/providers/prices.ts) and count the
 * messages whose model had no price. Runs keep their cost in their usage JSON.
 */
export function modelCostsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of metricColumns.filter((each) => each.addedIn === '0026-model-costs')) {
        await db.schema
          .alterTable('agent_metrics')
          .addColumn(column.name, column.wide ? 'bigint' : 'integer', (definition) => definition.notNull().defaultTo(0))
          .execute();
      }
    },
  };
}

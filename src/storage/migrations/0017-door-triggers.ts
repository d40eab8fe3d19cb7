import type { Kysely, Migration } from 'kysely';
import { metricColumns } from '../repositories/agent-metrics-columns.js';

/**
 * The MCP server and the A2A agents are doors of their own: runs they start
 * have the triggers `mcp` and `a2a`, counted per agent like the others.
 * Nothing else changes: a trigger is text in `runs`.
 */
export function doorTriggersMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of metricColumns.filter((each) => each.addedIn === '0017-door-triggers')) {
        await db.schema
          .alterTable('agent_metrics')
          .addColumn(column.name, column.wide ? 'bigint' : 'integer', (definition) => definition.notNull().defaultTo(0))
          .execute();
      }
    },
  };
}

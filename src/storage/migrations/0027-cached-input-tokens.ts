import type { Kysely, Migration } from 'kysely';
import { metricColumns } from '../repositories/agent-metrics-columns.js';

/**
 * The input tokens providers read from their prompt caches, summed per agent
 * like the other token counts (src/providers/prompt-cache.ts). Replies keep
 * theirs in their usage JSON.
 */
export function cachedInputTokensMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of metricColumns.filter((each) => each.addedIn === '0027-cached-input-tokens')) {
        await db.schema
          .alterTable('agent_metrics')
          .addColumn(column.name, column.wide ? 'bigint' : 'integer', (definition) => definition.notNull().defaultTo(0))
          .execute();
      }
    },
  };
}

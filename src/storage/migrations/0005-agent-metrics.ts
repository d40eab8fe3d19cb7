import { sql, type Kysely, type Migration } from 'kysely';
import { metricColumns } from '../repositories/agent-metrics-columns.js';
import type { Dialect } from '../schema.js';

/**
 * Per-agent metrics rolled up per minute and per hour: one row per (account,
 * period, agent, start) of plain counters and fixed latency histogram
 * buckets, all of which merge by addition, so instances flush into the same
 * rows with additive upserts. Minute rows serve minute views; hour rows serve
 * hour and day views and usage, which would otherwise sum 60 times as many
 * rows (bench/README.md, agent-metrics-read).
 */
export function agentMetricsMigration(dialect: Dialect): Migration {
  // Byte order on both dialects, as in 0001: usage pages by agent id, and ids sort the same everywhere.
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      let table = db.schema
        .createTable('agent_metrics')
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('period', 'text', (column) => column.notNull())
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('bucket_start', 'text', (column) => column.notNull());
      // The columns as they were then: later migrations add theirs (0011-runs).
      for (const column of metricColumns.filter((each) => each.addedIn === undefined)) {
        table = table.addColumn(column.name, column.wide ? 'bigint' : 'integer', (definition) =>
          definition.notNull().defaultTo(0),
        );
      }
      await table
        .addPrimaryKeyConstraint('agent_metrics_pkey', ['account_id', 'period', 'agent_id', 'bucket_start'])
        .execute();
      // The prune removes rows past the retention, over every agent.
      await db.schema.createIndex('agent_metrics_bucket_idx').on('agent_metrics').column('bucket_start').execute();
    },
  };
}

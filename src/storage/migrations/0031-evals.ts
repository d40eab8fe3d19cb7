import { sql, type Kysely, type Migration } from 'kysely';
import { metricColumns } from '../repositories/agent-metrics-columns.js';
import type { Dialect } from '../schema.js';

/**
 * Evals (docs/evals.md): an account's datasets of cases, the eval runs of an
 * agent with a copy of their dataset's cases, and one result row per case and
 * version, written as each finishes: what a takeover reads to run only the
 * cases without one. The replies of an eval are runs with the trigger `eval`,
 * counted per agent like the other triggers.
 */
export function evalsMigration(dialect: Dialect): Migration {
  // Byte order on both dialects, as in 0001: ids sort as they were made.
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('eval_datasets')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('description', 'text')
        .addColumn('cases', 'text', (column) => column.notNull())
        .addColumn('case_count', 'integer', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      // The list order: an account's datasets, newest first.
      await db.schema
        .createIndex('eval_datasets_account_idx')
        .on('eval_datasets')
        .columns(['account_id', 'id'])
        .execute();

      await db.schema
        .createTable('evals')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('dataset_id', 'text', (column) => column.notNull())
        .addColumn('dataset_name', 'text', (column) => column.notNull())
        .addColumn('cases', 'text', (column) => column.notNull())
        .addColumn('case_count', 'integer', (column) => column.notNull())
        .addColumn('versions', 'text', (column) => column.notNull())
        .addColumn('judge', 'text', (column) => column.notNull())
        .addColumn('concurrency', 'integer', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('instance_id', 'text')
        .addColumn('key_id', 'text', (column) => column.notNull())
        .addColumn('error', 'text')
        .addColumn('takeovers', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('cancel_requested_at', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .execute();
      // The list order (an agent's evals, newest first) and the claim sweep (unfinished evals by owner).
      await db.schema.createIndex('evals_agent_idx').on('evals').columns(['agent_id', 'id']).execute();
      await db.schema.createIndex('evals_status_idx').on('evals').columns(['status', 'instance_id']).execute();

      await db.schema
        .createTable('eval_results')
        .addColumn('eval_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('case_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('version', 'integer', (column) => column.notNull())
        .addColumn('position', 'integer', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('passed', 'integer', (column) => column.notNull())
        .addColumn('scores', 'text', (column) => column.notNull())
        .addColumn('detail', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        // One result per case and version: a case finished twice (a takeover racing its end) is kept once.
        .addPrimaryKeyConstraint('eval_results_pk', ['eval_id', 'case_id', 'version'])
        .execute();

      for (const column of metricColumns.filter((each) => each.addedIn === '0031-evals')) {
        await db.schema
          .alterTable('agent_metrics')
          .addColumn(column.name, column.wide ? 'bigint' : 'integer', (definition) => definition.notNull().defaultTo(0))
          .execute();
      }
    },
  };
}

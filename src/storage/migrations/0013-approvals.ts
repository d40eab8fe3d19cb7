import { sql, type Kysely, type Migration } from 'kysely';
import { metricColumns } from '../repositories/agent-metrics-columns.js';
import type { Dialect } from '../schema.js';

/**
 * Approvals: tool calls that wait for a person's decision, and the runs that
 * paused for them (docs/approvals.md).
 *
 * - `paused_runs`: what a paused reply had reached, so any instance can go on
 *   with it; one row per paused run, updated first by every decision on it
 *   (which serialises them: the last one resumes the reply, exactly once).
 * - `approvals`: one row per tool call waiting; listed per agent newest first,
 *   swept by expiry time while pending.
 * - `runs.approval_id`: the decision an `approval` run goes on from.
 * - `agent_metrics` gains the `approval` trigger's counter.
 */
export function approvalsMigration(dialect: Dialect): Migration {
  // Byte order on both dialects, as in 0001: ids sort the same everywhere, so cursors agree.
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('paused_runs')
        .addColumn('run_id', 'text', (column) => column.primaryKey())
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('agent_id', 'text', (column) => column.notNull())
        .addColumn('state', 'text', (column) => column.notNull())
        .addColumn('decisions', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('resumed_run_id', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema.createIndex('paused_runs_agent_idx').on('paused_runs').column('agent_id').execute();

      await db.schema
        .createTable('approvals')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('run_id', 'text', (column) => column.notNull())
        .addColumn('tool_call_id', 'text', (column) => column.notNull())
        .addColumn('tool_name', 'text', (column) => column.notNull())
        .addColumn('input', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('reason', 'text')
        .addColumn('decided_by', 'text')
        .addColumn('user_id', 'text')
        .addColumn('room_id', 'text')
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .addColumn('decided_at', 'text')
        .addColumn('resumed_run_id', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
      // The list order (newest first per agent) and its status filter read along it.
      await db.schema.createIndex('approvals_agent_idx').on('approvals').columns(['agent_id', 'id']).execute();
      // The expiry sweep: pending approvals by expiry time.
      await db.schema.createIndex('approvals_due_idx').on('approvals').columns(['status', 'expires_at']).execute();
      // The decisions of one paused run.
      await db.schema.createIndex('approvals_run_idx').on('approvals').column('run_id').execute();

      await db.schema.alterTable('runs').addColumn('approval_id', 'text').execute();
      for (const column of metricColumns.filter((each) => each.addedIn === '0013-approvals')) {
        await db.schema
          .alterTable('agent_metrics')
          .addColumn(column.name, column.wide ? 'bigint' : 'integer', (definition) => definition.notNull().defaultTo(0))
          .execute();
      }
    },
  };
}

import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * Tasks: an agent's scheduled work. The scheduler claims tasks by
 * `next_due_at` (the only index it reads), inserts the due time's run and
 * moves `next_due_at` on in one transaction; the unique `(task_id, due_at)`
 * of `runs` (0011) makes a second claim of the same due time impossible.
 */
export function tasksMigration(dialect: Dialect): Migration {
  // Byte order on both dialects, as in 0001: ids sort the same everywhere, so cursors agree.
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('tasks')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('instructions', 'text', (column) => column.notNull())
        .addColumn('schedule', 'text', (column) => column.notNull())
        .addColumn('output', 'text', (column) => column.notNull())
        .addColumn('enabled', 'integer', (column) => column.notNull())
        .addColumn('paused_reason', 'text')
        .addColumn('next_due_at', 'text')
        .addColumn('last_run_id', 'text')
        .addColumn('last_run_at', 'text')
        .addColumn('last_run_status', 'text')
        .addColumn('last_error', 'text')
        .addColumn('consecutive_failures', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      // The list order of an agent's tasks (newest first), and their removal with the agent.
      await db.schema.createIndex('tasks_agent_idx').on('tasks').columns(['agent_id', 'id']).execute();
      // What the scheduler claims: due tasks by due time (disabled tasks have none).
      await db.schema.createIndex('tasks_due_idx').on('tasks').column('next_due_at').execute();
    },
  };
}

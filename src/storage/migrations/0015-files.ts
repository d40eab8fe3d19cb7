import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import { metricColumns } from '../repositories/agent-metrics-columns.js';
import type { Dialect } from '../schema.js';

/**
 * Files: images sent with messages and images tools made, stored in the
 * database (a blob on SQLite, bytea on PostgreSQL) so that every instance
 * serves them and a backup of the database holds them. Turns name their
 * images in `messages.attachments`; the agent metrics count images in and out.
 */
export function filesMigration(dialect: Dialect): Migration {
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('files')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('agent_id', 'text', (column) => column.notNull())
        .addColumn('media_type', 'text', (column) => column.notNull())
        .addColumn('size_bytes', 'integer', (column) => column.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('origin', 'text', (column) => column.notNull())
        .addColumn('body', dialect === 'postgres' ? 'bytea' : 'blob', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
      // Their removal with the agent.
      await db.schema.createIndex('files_agent_idx').on('files').column('agent_id').execute();

      await db.schema.alterTable('messages').addColumn('attachments', 'text').execute();

      for (const column of metricColumns.filter((each) => each.addedIn === '0015-files')) {
        await db.schema
          .alterTable('agent_metrics')
          .addColumn(column.name, column.wide ? 'bigint' : 'integer', (definition) => definition.notNull().defaultTo(0))
          .execute();
      }
    },
  };
}

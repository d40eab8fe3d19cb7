import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * The lifecycle and audit trail of agents. One table, written in the
 * transaction of the change it records, so that a later outbox (webhooks) can
 * be fed from the same rows: no event for a rolled-back change, none lost to
 * a crash after a commit.
 */
export function agentEventsMigration(dialect: Dialect): Migration {
  // Byte order on both dialects, as in 0001: ids sort the same everywhere, so cursors agree.
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('agent_events')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('type', 'text', (column) => column.notNull())
        .addColumn('data', 'text', (column) => column.notNull())
        .addColumn('actor', 'text', (column) => column.notNull())
        .addColumn('request_id', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
      // The page order of the trail (newest first within one agent of one account).
      await db.schema
        .createIndex('agent_events_agent_idx')
        .on('agent_events')
        .columns(['account_id', 'agent_id', 'id'])
        .execute();
      // Finds deletions older than the retention, the trails the prune removes.
      await db.schema
        .createIndex('agent_events_type_created_idx')
        .on('agent_events')
        .columns(['type', 'created_at'])
        .execute();
    },
  };
}

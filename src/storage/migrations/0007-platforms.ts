import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * The state of each agent's platform connectors, kept in the database so that
 * every instance reports the same (GET /v1/agents/{id}/platforms), and each
 * connector's durable position (Telegram's last handled update id), so that an
 * instance taking a connector over never handles an update twice.
 */
export function platformsMigration(dialect: Dialect): Migration {
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('platform_states')
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('type', 'text', (column) => column.notNull())
        .addColumn('state', 'text', (column) => column.notNull())
        .addColumn('reason', 'text')
        .addColumn('last_event_at', 'text')
        .addColumn('holder', 'text')
        /** The connector's durable position: for Telegram, the last update id taken for handling. */
        .addColumn('position', 'text')
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('platform_states_pk', ['agent_id', 'type'])
        .execute();
    },
  };
}

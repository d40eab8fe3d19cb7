import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * What the social connectors (X, Bluesky) keep beside their connector state
 * (0007): the platform items each one took for answering, so that no
 * instance answers one twice even when the platform's order is not a number
 * (Bluesky's notifications), and how many posts each connector made per UTC
 * day, for its daily cap.
 */
export function socialMigration(dialect: Dialect): Migration {
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('platform_items')
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('type', 'text', (column) => column.notNull())
        /** The platform's id of the item (a notification's at:// URI). */
        .addColumn('item_id', 'text', (column) => column.notNull())
        .addColumn('claimed_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('platform_items_pk', ['agent_id', 'type', 'item_id'])
        .execute();
      // Old claims are swept by age.
      await db.schema.createIndex('platform_items_claimed_at').on('platform_items').column('claimed_at').execute();
      await db.schema
        .createTable('platform_daily_posts')
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('type', 'text', (column) => column.notNull())
        /** The UTC day, YYYY-MM-DD. */
        .addColumn('day', 'text', (column) => column.notNull())
        .addColumn('posts', 'integer', (column) => column.notNull())
        .addPrimaryKeyConstraint('platform_daily_posts_pk', ['agent_id', 'type', 'day'])
        .execute();
    },
  };
}

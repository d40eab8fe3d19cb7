import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The X mentions and Bluesky notifications a poller took and has not
 * answered yet: `platform_items.pending` holds the item itself (as the
 * platform gave it, JSON) until it is answered, and `attempts` how many
 * pollers took it, so that the instance that takes an account over after a
 * crash answers what the dead one left (up to four at a time) rather than
 * losing it. The partial index holds only the rows still pending: a
 * connector reads them once per start, whatever the week of claims kept.
 */
export function platformPendingItemsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('platform_items').addColumn('pending', 'text').execute();
      await db.schema
        .alterTable('platform_items')
        .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('platform_items_pending_idx')
        .on('platform_items')
        .columns(['agent_id', 'type', 'claimed_at'])
        .where(sql.ref('pending'), 'is not', null)
        .execute();
    },
  };
}

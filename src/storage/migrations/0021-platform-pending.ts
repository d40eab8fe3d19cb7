import type { Kysely, Migration } from 'kysely';

/**
 * The item a connector took at its position and has not answered yet (a
 * Telegram update, as JSON with the attempts made), so that the instance
 * that takes the connector over after a crash answers it rather than losing
 * it. Cleared once the item is answered.
 */
export function platformPendingMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('platform_states').addColumn('pending_item', 'text').execute();
    },
  };
}

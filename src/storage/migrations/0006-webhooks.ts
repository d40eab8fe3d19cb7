import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * Webhook subscriptions and their outbox. A delivery row is written in the
 * transaction of the change it reports (see events/webhook-outbox.ts), one
 * per subscription that matches at that moment, and is at once the outbox
 * entry the dispatcher claims and the log entry owners read.
 */
export function webhooksMigration(dialect: Dialect): Migration {
  // Byte order on both dialects, as in 0001: ids sort the same everywhere, so cursors agree.
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('url', 'text', (column) => column.notNull())
        .addColumn('events', 'text', (column) => column.notNull())
        .addColumn('description', 'text')
        .addColumn('enabled', 'integer', (column) => column.notNull())
        .addColumn('secret', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      // The list order of an account's webhooks, and the lookup of subscribers on every recorded event.
      await db.schema.createIndex('webhooks_account_idx').on('webhooks').columns(['account_id', 'id']).execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('webhook_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('event_id', 'text', (column) => column.notNull())
        .addColumn('event_type', 'text', (column) => column.notNull())
        .addColumn('payload', 'text', (column) => column.notNull())
        .addColumn('state', 'text', (column) => column.notNull())
        .addColumn('attempts', 'integer', (column) => column.notNull())
        .addColumn('next_attempt_at', 'text', (column) => column.notNull())
        .addColumn('claim_token', 'text')
        .addColumn('attempt_log', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      // What the dispatcher claims: pending rows by due time.
      await db.schema
        .createIndex('webhook_deliveries_due_idx')
        .on('webhook_deliveries')
        .columns(['state', 'next_attempt_at'])
        .execute();
      // The delivery log of one webhook, newest first.
      await db.schema
        .createIndex('webhook_deliveries_webhook_idx')
        .on('webhook_deliveries')
        .columns(['webhook_id', 'id'])
        .execute();
      // Finished deliveries past the retention, which the dispatcher prunes.
      await db.schema
        .createIndex('webhook_deliveries_updated_idx')
        .on('webhook_deliveries')
        .columns(['updated_at'])
        .execute();
    },
  };
}

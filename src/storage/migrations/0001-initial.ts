import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * Accounts, keys, agents with their maintained counts, idempotency records and
 * messages. Every list order of the API has an index that ends in `id`, so
 * keyset pagination is an index range scan on both dialects.
 */
export function initialMigration(dialect: Dialect): Migration {
  // PostgreSQL compares text with the database's collation by default; "C" makes
  // it byte order, the same order SQLite uses, so pages agree across dialects.
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;

  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('service_state')
        .addColumn('name', 'text', (column) => column.primaryKey())
        .addColumn('value', 'text', (column) => column.notNull())
        .execute();

      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('account_id', 'text', (column) => column.notNull().references('accounts.id'))
        .addColumn('name', 'text')
        .addColumn('prefix', 'text', (column) => column.notNull())
        .addColumn('key_hash', 'text', (column) => column.notNull().unique())
        .addColumn('scopes', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_account_idx').on('api_keys').columns(['account_id', 'id']).execute();

      await db.schema
        .createTable('agents')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull().references('accounts.id'))
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('sort_name', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('status', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('status_reason', 'text')
        .addColumn('deletion_protection', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('profile', 'text', (column) => column.notNull())
        .addColumn('version', 'integer', (column) => column.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      const agentIndexes: Array<[string, string[]]> = [
        ['agents_account_created_idx', ['account_id', 'created_at', 'id']],
        ['agents_account_name_idx', ['account_id', 'sort_name', 'id']],
        ['agents_account_status_idx', ['account_id', 'status', 'id']],
        ['agents_account_status_created_idx', ['account_id', 'status', 'created_at', 'id']],
        ['agents_account_status_name_idx', ['account_id', 'status', 'sort_name', 'id']],
      ];
      for (const [name, columns] of agentIndexes) {
        await db.schema.createIndex(name).on('agents').columns(columns).execute();
      }

      await db.schema
        .createTable('agent_counts')
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('agent_count', 'integer', (column) => column.notNull())
        .addPrimaryKeyConstraint('agent_counts_pk', ['account_id', 'status'])
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('idempotency_key', 'text', (column) => column.notNull())
        .addColumn('request_hash', 'text', (column) => column.notNull())
        .addColumn('state', 'text', (column) => column.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_expiry_idx').on('idempotency_keys').column('expires_at').execute();

      await db.schema
        .createTable('messages')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('agent_id', 'text', (column) => column.notNull())
        .addColumn('conversation', 'text', (column) => column.notNull())
        .addColumn('user_id', 'text')
        .addColumn('room_id', 'text')
        .addColumn('role', 'text', (column) => column.notNull())
        .addColumn('text', 'text', (column) => column.notNull())
        .addColumn('finish_reason', 'text')
        .addColumn('usage', 'text')
        .addColumn('model', 'text')
        .addColumn('latency_ms', 'integer')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema.createIndex('messages_agent_idx').on('messages').columns(['agent_id', 'id']).execute();
      await db.schema
        .createIndex('messages_conversation_idx')
        .on('messages')
        .columns(['agent_id', 'conversation', 'id'])
        .execute();
    },
  };
}

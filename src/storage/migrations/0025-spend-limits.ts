import type { Kysely, Migration } from 'kysely';

/**
 * Spend limits (src/services/spend/): what each agent and each account spent
 * per UTC day and month, in tokens and in micro-dollars, and what messages in
 * flight have reserved of it; and each account's own limits. Every instance
 * reserves and settles against these rows (read and written in one
 * transaction, PostgreSQL rows locked), so a limit holds across instances.
 * Amounts are decimal text like the transfer totals of migration 0014, so no
 * dialect's integer width bounds them.
 */
export function spendLimitsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('spend_totals')
        .addColumn('account_id', 'text', (column) => column.notNull())
        // `account` for the account's own totals, else the agent's id.
        .addColumn('subject', 'text', (column) => column.notNull())
        // `day:YYYY-MM-DD` or `month:YYYY-MM`, UTC.
        .addColumn('period', 'text', (column) => column.notNull())
        .addColumn('spent_tokens', 'text', (column) => column.notNull())
        .addColumn('spent_micro_usd', 'text', (column) => column.notNull())
        .addColumn('reserved_tokens', 'text', (column) => column.notNull())
        .addColumn('reserved_micro_usd', 'text', (column) => column.notNull())
        // When the `agent.budget_exceeded` event of this period was written: once per period.
        .addColumn('exceeded_at', 'text')
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('spend_totals_pk', ['account_id', 'subject', 'period'])
        .execute();
      await db.schema
        .createTable('account_spend_limits')
        .addColumn('account_id', 'text', (column) => column.primaryKey())
        .addColumn('limits', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
    },
  };
}

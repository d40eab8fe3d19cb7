import type { Kysely, Migration } from 'kysely';

/**
 * What each agent's `evm` plugin sent per UTC day, per chain and asset (the
 * native currency or a token's address): the daily limit of transfers is
 * checked against it, by every instance alike. Totals are base units as
 * decimal text, since a day's wei easily pass 2^63; they are read and written
 * inside one transaction per reservation, so no column arithmetic is needed.
 */
export function evmTransfersMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('evm_transfer_totals')
        .addColumn('agent_id', 'text', (column) => column.notNull())
        .addColumn('chain_id', 'text', (column) => column.notNull())
        .addColumn('asset', 'text', (column) => column.notNull())
        .addColumn('day', 'text', (column) => column.notNull())
        .addColumn('total', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('evm_transfer_totals_pk', ['agent_id', 'chain_id', 'asset', 'day'])
        .execute();
    },
  };
}

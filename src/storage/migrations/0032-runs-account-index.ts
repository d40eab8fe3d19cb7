import type { Kysely, Migration } from 'kysely';

/**
 * The account's runs, newest first (GET /v1/runs): an index on
 * (account_id, id), so a page of one account's runs is read in order without
 * scanning the other accounts' runs.
 */
export function runsAccountIndexMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.createIndex('runs_account_idx').on('runs').columns(['account_id', 'id']).execute();
    },
  };
}

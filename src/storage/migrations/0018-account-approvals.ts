import type { Kysely, Migration } from 'kysely';

/**
 * GET /v1/approvals lists the approvals of every agent of an account, newest
 * first: this index reads that order (and its status filter) along it, as
 * approvals_agent_idx does for one agent.
 */
export function accountApprovalsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.createIndex('approvals_account_idx').on('approvals').columns(['account_id', 'id']).execute();
    },
  };
}

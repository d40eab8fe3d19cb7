import type { Kysely, Migration } from 'kysely';

/**
 * The account-wide event trail (GET /v1/events) pages newest first over every
 * agent of an account, optionally of one type: an index for each of those
 * orders, so a page is a short index range scan however long the trail is.
 * One agent's trail keeps using (account, agent, id) from 0004.
 */
export function accountEventIndexesMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('agent_events_account_idx')
        .on('agent_events')
        .columns(['account_id', 'id'])
        .execute();
      await db.schema
        .createIndex('agent_events_account_type_idx')
        .on('agent_events')
        .columns(['account_id', 'type', 'id'])
        .execute();
    },
  };
}
